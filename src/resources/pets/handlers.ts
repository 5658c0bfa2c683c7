import { pet as resource } from "../../db/resources";
import { ifMatch, withETag } from "../../http/conditional";
import { createdOrReplayed, keyOf } from "../../http/idempotency";
import { listPage } from "../../http/pagination";
import type { AppRouteHandler } from "../../http/router";
import { byId } from "../../models/id";
import type { Pet } from "../../models/pet";
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

export const createPet: AppRouteHandler<typeof routes.createPet> = async (
	c,
) => {
	const body = c.req.valid("json");
	const keyed = await keyOf(c, body);
	const pet = createdOrReplayed<Pet>(
		c,
		keyed,
		await queries.createPet(c.var.db, body, keyed, c.var.now()),
	);
	return c.json(withETag(c, pet), 201, { Location: resource.pathOf(pet.id) });
};

export const getPetById: AppRouteHandler<typeof routes.getPetById> = async (
	c,
) => {
	const pet = await queries.getPet(c.var.db, c.req.valid("param").petId);
	return c.json(withETag(c, pet), 200);
};

const update =
	(
		route: "replacePet" | "updatePet",
	): AppRouteHandler<(typeof routes)[typeof route]> =>
	async (c) => {
		const pet = await queries.updatePet(
			c.var.db,
			c.req.valid("param").petId,
			c.req.valid("json"),
			ifMatch(c),
			c.var.now(),
		);
		return c.json(withETag(c, pet), 200);
	};

export const replacePet = update("replacePet");
export const updatePet = update("updatePet");

export const deletePet: AppRouteHandler<typeof routes.deletePet> = async (
	c,
) => {
	await queries.deletePet(
		c.var.db,
		c.req.valid("param").petId,
		ifMatch(c),
		c.var.now(),
	);
	return c.body(null, 204);
};
