import { createRouter } from "../../http/router";
import * as handlers from "./handlers";
import * as routes from "./routes";

export const petsRouter = createRouter()
	.openapi(routes.listPets, handlers.listPets)
	.openapi(routes.createPet, handlers.createPet)
	.openapi(routes.getPetById, handlers.getPetById)
	.openapi(routes.replacePet, handlers.replacePet)
	.openapi(routes.updatePet, handlers.updatePet)
	.openapi(routes.deletePet, handlers.deletePet);
