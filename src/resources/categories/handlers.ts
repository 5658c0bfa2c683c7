import { category } from "../../db/resources";
import { withETag } from "../../http/conditional";
import { listPage } from "../../http/pagination";
import type { AppRouteHandler } from "../../http/router";
import { writeContext } from "../../http/write-context";
import { byId } from "../../models/id";
import * as queries from "./queries";
import type * as routes from "./routes";

export const listCategories: AppRouteHandler<typeof routes.listCategories> = async (c) => {
	const page = await listPage(
		c,
		c.req.valid("query"),
		(page) => category.page(c.var.db, page),
		byId,
	);
	return c.json(page, 200);
};

export const createCategory: AppRouteHandler<typeof routes.createCategory> = async (c) => {
	const created = await queries.createCategory(writeContext(c), c.req.valid("json"));
	return c.json(withETag(c, created), 201, { Location: category.pathOf(created.id) });
};

export const getCategoryById: AppRouteHandler<typeof routes.getCategoryById> = async (c) => {
	const found = await category.find(c.var.db, c.req.valid("param").categoryId);
	return c.json(withETag(c, found), 200);
};

const update =
	(route: "replaceCategory" | "updateCategory"): AppRouteHandler<(typeof routes)[typeof route]> =>
	async (c) => {
		const updated = await queries.updateCategory(
			writeContext(c),
			c.req.valid("param").categoryId,
			c.req.valid("json"),
		);
		return c.json(withETag(c, updated), 200);
	};

export const replaceCategory = update("replaceCategory");
export const updateCategory = update("updateCategory");

export const deleteCategory: AppRouteHandler<typeof routes.deleteCategory> = async (c) => {
	await queries.deleteCategory(writeContext(c), c.req.valid("param").categoryId);
	return c.body(null, 204);
};
