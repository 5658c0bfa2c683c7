import { category as resource } from "../../db/resources";
import { ifMatch, withETag } from "../../http/conditional";
import { createdOrReplayed, keyOf } from "../../http/idempotency";
import { listPage } from "../../http/pagination";
import type { AppRouteHandler } from "../../http/router";
import type { Category } from "../../models/category";
import { byId } from "../../models/id";
import * as queries from "./queries";
import type * as routes from "./routes";

export const listCategories: AppRouteHandler<
	typeof routes.listCategories
> = async (c) => {
	const page = await listPage(
		c,
		c.req.valid("query"),
		(filter) => queries.listCategories(c.var.db, filter),
		byId,
	);
	return c.json(page, 200);
};

export const createCategory: AppRouteHandler<
	typeof routes.createCategory
> = async (c) => {
	const body = c.req.valid("json");
	const keyed = await keyOf(c, body);
	const category = createdOrReplayed<Category>(
		c,
		keyed,
		await queries.createCategory(c.var.db, body, keyed, c.var.now()),
	);
	return c.json(withETag(c, category), 201, {
		Location: resource.pathOf(category.id),
	});
};

export const getCategoryById: AppRouteHandler<
	typeof routes.getCategoryById
> = async (c) => {
	const { categoryId } = c.req.valid("param");
	const category = await queries.getCategory(c.var.db, categoryId);
	return c.json(withETag(c, category), 200);
};

const update =
	(
		route: "replaceCategory" | "updateCategory",
	): AppRouteHandler<(typeof routes)[typeof route]> =>
	async (c) => {
		const body = c.req.valid("json");
		const category = await queries.updateCategory(
			c.var.db,
			c.req.valid("param").categoryId,
			// PUT replaces: an omitted description is removed.
			route === "replaceCategory"
				? { ...body, description: body.description ?? null }
				: body,
			ifMatch(c),
			c.var.now(),
		);
		return c.json(withETag(c, category), 200);
	};

export const replaceCategory = update("replaceCategory");
export const updateCategory = update("updateCategory");

export const deleteCategory: AppRouteHandler<
	typeof routes.deleteCategory
> = async (c) => {
	const { categoryId } = c.req.valid("param");
	await queries.deleteCategory(c.var.db, categoryId, ifMatch(c), c.var.now());
	return c.body(null, 204);
};
