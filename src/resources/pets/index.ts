import { pet } from "../../db/resources";
import { withETag } from "../../http/conditional";
import { createdHeaders } from "../../http/idempotency";
import { type AppRouteHandler, createRouter } from "../../http/router";
import { writeContext } from "../../http/write-context";
import { byId } from "../../models/id";
import { readOne, readPage } from "../reads";
import { listPets } from "./list";
import * as queries from "./queries";
import * as routes from "./routes";

const update =
	(route: "replacePet" | "updatePet"): AppRouteHandler<(typeof routes)[typeof route]> =>
	async (c) => {
		const { petId } = c.req.valid("param");
		// A PUT replaces every field: an optional one it does not carry is cleared.
		const changes = { ...(route === "replacePet" && pet.cleared), ...c.req.valid("json") };
		const updated = await queries.updatePet(writeContext(c), petId, changes);
		return c.json(withETag(c, updated), 200);
	};

export const petsRouter = createRouter()
	.openapi(routes.listPets, readPage(listPets, byId))
	.openapi(routes.createPet, async (c) => {
		const created = await queries.createPet(writeContext(c), c.req.valid("json"));
		const headers = createdHeaders(pet.pathOf(created.pet.id), created.replayed);
		return c.json(withETag(c, created.pet), 201, headers);
	})
	.openapi(routes.getPetById, readOne(pet))
	.openapi(routes.replacePet, update("replacePet"))
	.openapi(routes.updatePet, update("updatePet"))
	.openapi(routes.deletePet, async (c) => {
		await queries.deletePet(writeContext(c), c.req.valid("param").petId);
		return c.body(null, 204);
	});
