import { z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { openSession } from "../db/client";
import type { AppEnv } from "../env";
import { invalidRequest } from "./validation";

export const bookmarkHeader = "X-D1-Bookmark";

/** The optional bookmark request header, documented on every operation. */
export const bookmarkParam = {
	[bookmarkHeader]: z
		.string()
		.regex(/^[0-9a-f]{1,32}(-[0-9a-f]{1,32}){3}$/, "is not a D1 bookmark")
		.optional()
		.openapi({
			param: { name: bookmarkHeader, in: "header" },
			description:
				"The `X-D1-Bookmark` of an earlier response: this request then reads at least what that one wrote.",
		}),
};

const bookmarkHeaders = z.object(bookmarkParam);

/** Documents the bookmark on every response: present whenever the request reached the database. */
export const bookmarkResponseHeader = {
	[bookmarkHeader]: {
		description:
			"Where this request left the database, on any response to a request that reached it (errors included); send it back to read your own writes from a replica.",
		schema: { type: "string" as const },
	},
};

/**
 * Opens the D1 session of a request that reads or writes the database: reads go to any replica consistent
 * with the client's bookmark, writes to the primary; the response carries the session's bookmark. A
 * malformed bookmark is a `validation_error`, before the session opens.
 */
export const d1Session: MiddlewareHandler<AppEnv> = async (c, next) => {
	const given = bookmarkHeaders.safeParse({
		[bookmarkHeader]: c.req.header(bookmarkHeader),
	});
	if (!given.success) throw invalidRequest(given.error, "header");
	const session = openSession(c.env.DB, {
		bookmark: given.data[bookmarkHeader],
		write: c.req.method !== "GET" && c.req.method !== "HEAD",
	});
	c.set("db", session.db);
	await next();
	const bookmark = session.bookmark();
	if (bookmark) c.header(bookmarkHeader, bookmark);
};
