import { pet } from "../../db/resources";
import { withETag } from "../../http/conditional";
import { createdHeaders } from "../../http/idempotency";
import { listPage } from "../../http/pagination";
import { type AppRouteHandler, createRouter, retrying } from "../../http/router";
import { writeContext } from "../../http/write-context";
import { byId } from "../../models/id";
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
	.openapi(
		routes.listPets,
		retrying(async (c) => {
			const query = c.req.valid("query");
			const pets = await listPage(c, query, (page) => listPets(c.var.db, page), byId);
			return c.json(pets, 200);
		}),
	)
	.openapi(routes.createPet, async (c) => {
		const created = await queries.createPet(writeContext(c), c.req.valid("json"));
		const headers = createdHeaders(pet.pathOf(created.pet.id), created.replayed);
		return c.json(withETag(c, created.pet), 201, headers);
	})
	.openapi(
		routes.getPetById,
		retrying(async (c) =>
			c.json(withETag(c, await pet.find(c.var.db, c.req.valid("param").petId)), 200),
		),
	)
	.openapi(routes.replacePet, update("replacePet"))
	.openapi(routes.updatePet, update("updatePet"))
	.openapi(routes.deletePet, async (c) => {
		await queries.deletePet(writeContext(c), c.req.valid("param").petId);
		return c.body(null, 204);
	});
