import { ApiError } from "../../http/errors";
import { byId, paginate } from "../../http/pagination";
import type { AppRouteHandler } from "../../http/router";
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
		after: cursor ?? 0,
	});
	return c.json(paginate(c, rows, limit, byId), 200);
};

export const createCategory: AppRouteHandler<
	typeof routes.createCategory
> = async (c) => {
	const body = c.req.valid("json");
	const category = await queries.createCategory(c.var.db, body);
	if (!category) throw nameTaken(body.name);
	return c.json(category, 201, { Location: `/categories/${category.id}` });
};

export const getCategoryById: AppRouteHandler<
	typeof routes.getCategoryById
> = async (c) => {
	const { categoryId } = c.req.valid("param");
	const category = await queries.getCategory(c.var.db, categoryId);
	if (!category) throw categoryNotFound(categoryId);
	return c.json(category, 200);
};

const update = async (
	db: Parameters<typeof queries.updateCategory>[0],
	id: number,
	changes: Parameters<typeof queries.updateCategory>[2],
) => {
	const result = await queries.updateCategory(db, id, changes);
	if ("category" in result) return result.category;
	throw result.failure === "not_found"
		? categoryNotFound(id)
		: nameTaken(changes.name ?? "");
};

export const replaceCategory: AppRouteHandler<
	typeof routes.replaceCategory
> = async (c) => {
	const { categoryId } = c.req.valid("param");
	const { name, description } = c.req.valid("json");
	return c.json(
		await update(c.var.db, categoryId, {
			name,
			description: description ?? null,
		}),
		200,
	);
};

export const updateCategory: AppRouteHandler<
	typeof routes.updateCategory
> = async (c) => {
	const { categoryId } = c.req.valid("param");
	return c.json(await update(c.var.db, categoryId, c.req.valid("json")), 200);
};

export const deleteCategory: AppRouteHandler<
	typeof routes.deleteCategory
> = async (c) => {
	const { categoryId } = c.req.valid("param");
	const result = await queries.deleteCategory(c.var.db, categoryId);
	if (result === "not_found") throw categoryNotFound(categoryId);
	if (result === "category_in_use")
		throw new ApiError(
			"category_in_use",
			`Category ${categoryId} still has pets.`,
		);
	return c.body(null, 204);
};
