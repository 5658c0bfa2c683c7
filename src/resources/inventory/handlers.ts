import { ifMatch, preconditionFailed, withETag } from "../../http/conditional";
import { ApiError } from "../../http/errors";
import { paginate, startOf } from "../../http/pagination";
import type { AppRouteHandler } from "../../http/router";
import { byPetId } from "../../models/inventory";
import * as queries from "./queries";
import type * as routes from "./routes";

const itemNotFound = (petId: number) =>
	new ApiError("not_found", `Pet ${petId} has no inventory item.`);

export const listInventory: AppRouteHandler<
	typeof routes.listInventory
> = async (c) => {
	const { limit, cursor, status } = c.req.valid("query");
	const rows = await queries.listInventory(c.var.db, {
		status,
		limit,
		after: await startOf(c, cursor),
	});
	return c.json(await paginate(c, rows, limit, byPetId), 200);
};

export const getInventoryItem: AppRouteHandler<
	typeof routes.getInventoryItem
> = async (c) => {
	const { petId } = c.req.valid("param");
	const item = await queries.getInventoryItem(c.var.db, petId);
	if (!item) throw itemNotFound(petId);
	return c.json(withETag(c, item), 200);
};

export const setInventory: AppRouteHandler<typeof routes.setInventory> = async (
	c,
) => {
	const { petId } = c.req.valid("param");
	const { quantity } = c.req.valid("json");
	const result = await queries.setInventory(
		c.var.db,
		petId,
		quantity,
		ifMatch(c),
	);
	if ("item" in result) return c.json(withETag(c, result.item), 200);
	if (result.failure === "not_found") throw itemNotFound(petId);
	throw preconditionFailed();
};
