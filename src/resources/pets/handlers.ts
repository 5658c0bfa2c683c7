import { pet } from "../../db/resources";
import { withETag } from "../../http/conditional";
import { listPage } from "../../http/pagination";
import type { AppRouteHandler } from "../../http/router";
import { writeContext } from "../../http/write-context";
import { byId } from "../../models/id";
import * as queries from "./queries";
import type * as routes from "./routes";

export const listPets: AppRouteHandler<typeof routes.listPets> = async (c) => {
	const page = await listPage(
		c,
		c.req.valid("query"),
		(filter) => queries.listPets(c.var.db, filter),
		byId,
	);
	return c.json(page, 200);
};

export const createPet: AppRouteHandler<typeof routes.createPet> = async (c) => {
	const created = await queries.createPet(writeContext(c), c.req.valid("json"));
	return c.json(withETag(c, created), 201, { Location: pet.pathOf(created.id) });
};

export const getPetById: AppRouteHandler<typeof routes.getPetById> = async (c) => {
	const found = await pet.find(c.var.db, c.req.valid("param").petId);
	return c.json(withETag(c, found), 200);
};

const update =
	(route: "replacePet" | "updatePet"): AppRouteHandler<(typeof routes)[typeof route]> =>
	async (c) => {
		const updated = await queries.updatePet(
			writeContext(c),
			c.req.valid("param").petId,
			c.req.valid("json"),
		);
		return c.json(withETag(c, updated), 200);
	};

export const replacePet = update("replacePet");
export const updatePet = update("updatePet");

export const deletePet: AppRouteHandler<typeof routes.deletePet> = async (c) => {
	await queries.deletePet(writeContext(c), c.req.valid("param").petId);
	return c.body(null, 204);
};
