import { createRouter } from "../../http/router";
import * as handlers from "./handlers";
import * as routes from "./routes";

export const inventoryRouter = createRouter()
	.openapi(routes.listInventory, handlers.listInventory)
	.openapi(routes.getInventoryItem, handlers.getInventoryItem)
	.openapi(routes.setInventory, handlers.setInventory);
