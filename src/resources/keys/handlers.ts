import { apiKey } from "../../db/resources";
import { authenticated } from "../../http/auth";
import { withETag } from "../../http/conditional";
import { listPage } from "../../http/pagination";
import type { AppRouteHandler } from "../../http/router";
import { writeContext } from "../../http/write-context";
import { byId } from "../../models/id";
import * as queries from "./queries";
import type * as routes from "./routes";

export const listKeys: AppRouteHandler<typeof routes.listKeys> = async (c) =>
	c.json(await listPage(c, c.req.valid("query"), (page) => apiKey.page(c.var.db, page), byId), 200);

export const createKey: AppRouteHandler<typeof routes.createKey> = async (c) => {
	const created = await queries.createKey(writeContext(c), authenticated(c), c.req.valid("json"));
	return c.json(withETag(c, created), 201, { Location: apiKey.pathOf(created.id) });
};

export const getKey: AppRouteHandler<typeof routes.getKey> = async (c) =>
	c.json(withETag(c, await apiKey.find(c.var.db, c.req.valid("param").keyId)), 200);

export const updateKey: AppRouteHandler<typeof routes.updateKey> = async (c) => {
	const { keyId } = c.req.valid("param");
	const updated = await queries.updateKey(
		writeContext(c),
		authenticated(c),
		keyId,
		c.req.valid("json"),
	);
	return c.json(withETag(c, updated), 200);
};

export const rollKey: AppRouteHandler<typeof routes.rollKey> = async (c) => {
	const { keyId } = c.req.valid("param");
	const { previousValidFor } = c.req.valid("json");
	const rolled = await queries.rollKey(writeContext(c), authenticated(c), keyId, previousValidFor);
	return c.json(withETag(c, rolled), 200);
};

export const revokeKey: AppRouteHandler<typeof routes.revokeKey> = async (c) => {
	await queries.revokeKey(writeContext(c), c.env, c.req.valid("param").keyId);
	return c.body(null, 204);
};
