import type { Context } from "hono";
import type { Db } from "../db/client";
import type { AppEnv } from "../env";
import { withETag } from "../http/conditional";
import { listPage, type Page } from "../http/pagination";
import { retrying } from "../http/router";

// Handlers generic in their route's path and input, so that each route's own types reach the router and its client.

/** A list's handler: the page `load` reads for the request's filter, whose last row's position `positionOf` says. */
export const readPage = <F extends Page, T>(
	load: (db: Db, page: F) => Promise<T[] | { rows: T[]; through?: number }>,
	positionOf: (row: NoInfer<T>) => number,
) =>
	retrying(
		async <P extends string, I extends { out: { query: Omit<F, "after"> & { cursor?: string } } }>(
			c: Context<AppEnv, P, I>,
		) => {
			const query: Omit<F, "after"> & { cursor?: string } = c.req.valid("query");
			return c.json(await listPage(c, query, (page) => load(c.var.db, page as F), positionOf), 200);
		},
	);

/** A read's handler: the resource its path's parameter names, with its ETag. */
export const readOne = <Param extends string, A extends { etag: string }>(resource: {
	param: Param;
	find: (db: Db, id: number) => Promise<A>;
}) =>
	retrying(
		async <P extends string, I extends { out: { param: Record<Param, number> } }>(
			c: Context<AppEnv, P, I>,
		) =>
			c.json(withETag(c, await resource.find(c.var.db, c.req.valid("param")[resource.param])), 200),
	);
