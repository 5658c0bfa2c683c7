import { ifMatch, preconditionFailed, withETag } from "../../http/conditional";
import { ApiError } from "../../http/errors";
import { paginate, startOf } from "../../http/pagination";
import type { AppRouteHandler } from "../../http/router";
import { byId } from "../../models/id";
import * as queries from "./queries";
import type * as routes from "./routes";

const petNotFound = (id: number) =>
	new ApiError("not_found", `Pet ${id} does not exist.`);
const unknownCategory = (id: number) =>
	new ApiError("unknown_category", `Category ${id} does not exist.`);

export const listPets: AppRouteHandler<typeof routes.listPets> = async (c) => {
	const { limit, cursor, ...filter } = c.req.valid("query");
	const rows = await queries.listPets(c.var.db, {
		...filter,
		limit,
		after: await startOf(c, cursor),
	});
	return c.json(await paginate(c, rows, limit, byId), 200);
};

export const createPet: AppRouteHandler<typeof routes.createPet> = async (
	c,
) => {
	const body = c.req.valid("json");
	const pet = await queries.createPet(c.var.db, body);
	if (!pet) throw unknownCategory(body.categoryId);
	return c.json(withETag(c, pet), 201, { Location: `/pets/${pet.id}` });
};

export const getPetById: AppRouteHandler<typeof routes.getPetById> = async (
	c,
) => {
	const { petId } = c.req.valid("param");
	const pet = await queries.getPet(c.var.db, petId);
	if (!pet) throw petNotFound(petId);
	return c.json(withETag(c, pet), 200);
};

const update =
	(
		route: "replacePet" | "updatePet",
	): AppRouteHandler<(typeof routes)[typeof route]> =>
	async (c) => {
		const { petId } = c.req.valid("param");
		const changes = c.req.valid("json");
		const result = await queries.updatePet(
			c.var.db,
			petId,
			changes,
			ifMatch(c),
		);
		if ("pet" in result) return c.json(withETag(c, result.pet), 200);
		if (result.failure === "not_found") throw petNotFound(petId);
		if (result.failure === "precondition_failed") throw preconditionFailed();
		throw unknownCategory(changes.categoryId ?? 0);
	};

export const replacePet = update("replacePet");
export const updatePet = update("updatePet");

export const deletePet: AppRouteHandler<typeof routes.deletePet> = async (
	c,
) => {
	const { petId } = c.req.valid("param");
	const result = await queries.deletePet(c.var.db, petId, ifMatch(c));
	if (result === "not_found") throw petNotFound(petId);
	if (result === "precondition_failed") throw preconditionFailed();
	if (result === "pet_has_open_orders") {
		throw new ApiError(
			"pet_has_open_orders",
			`Pet ${petId} has open orders; complete or cancel them first.`,
		);
	}
	return c.body(null, 204);
};
