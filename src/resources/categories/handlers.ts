import { ifMatch, preconditionFailed, withETag } from "../../http/conditional";
import { ApiError } from "../../http/errors";
import { paginate, startOf } from "../../http/pagination";
import type { AppRouteHandler } from "../../http/router";
import { byId } from "../../models/id";
import * as queries from "./queries";
import type * as routes from "./routes";

const categoryNotFound = (id: number) =>
	new ApiError("not_found", `Category ${id} does not exist.`);
const nameTaken = (name: string) =>
	new ApiError("category_exists", `A category named "${name}" already exists.`);

export const listCategories: AppRouteHandler<
	typeof routes.listCategories
> = async (c) => {
	const { limit, cursor } = c.req.valid("query");
	const rows = await queries.listCategories(c.var.db, {
		limit,
		after: await startOf(c, cursor),
	});
	return c.json(await paginate(c, rows, limit, byId), 200);
};

export const createCategory: AppRouteHandler<
	typeof routes.createCategory
> = async (c) => {
	const body = c.req.valid("json");
	const category = await queries.createCategory(c.var.db, body);
	if (!category) throw nameTaken(body.name);
	return c.json(withETag(c, category), 201, {
		Location: `/categories/${category.id}`,
	});
};

export const getCategoryById: AppRouteHandler<
	typeof routes.getCategoryById
> = async (c) => {
	const { categoryId } = c.req.valid("param");
	const category = await queries.getCategory(c.var.db, categoryId);
	if (!category) throw categoryNotFound(categoryId);
	return c.json(withETag(c, category), 200);
};

const update =
	(
		route: "replaceCategory" | "updateCategory",
	): AppRouteHandler<(typeof routes)[typeof route]> =>
	async (c) => {
		const { categoryId } = c.req.valid("param");
		const body = c.req.valid("json");
		// PUT replaces: an omitted description is removed.
		const changes =
			route === "replaceCategory"
				? { ...body, description: body.description ?? null }
				: body;
		const result = await queries.updateCategory(
			c.var.db,
			categoryId,
			changes,
			ifMatch(c),
		);
		if ("category" in result) {
			return c.json(withETag(c, result.category), 200);
		}
		if (result.failure === "not_found") throw categoryNotFound(categoryId);
		if (result.failure === "precondition_failed") throw preconditionFailed();
		throw nameTaken(body.name ?? "");
	};

export const replaceCategory = update("replaceCategory");
export const updateCategory = update("updateCategory");

export const deleteCategory: AppRouteHandler<
	typeof routes.deleteCategory
> = async (c) => {
	const { categoryId } = c.req.valid("param");
	const result = await queries.deleteCategory(c.var.db, categoryId, ifMatch(c));
	if (result === "not_found") throw categoryNotFound(categoryId);
	if (result === "precondition_failed") throw preconditionFailed();
	if (result === "category_in_use") {
		throw new ApiError(
			"category_in_use",
			`Category ${categoryId} still has pets.`,
		);
	}
	return c.body(null, 204);
};
