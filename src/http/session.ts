import { z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { openSession } from "../db/client";
import type { AppEnv } from "../env";
import { isWrite } from "./methods";
import { responseHeader } from "./responses";
import { optionalHeader } from "./validation";

export const bookmarkHeader = "X-D1-Bookmark";

/** The optional bookmark request header, documented and validated on every operation by its route. */
export const bookmarkParam = {
	[bookmarkHeader]: optionalHeader(
		z.string().regex(/^[0-9a-f]{1,32}(-[0-9a-f]{1,32}){3}$/, "is not a D1 bookmark"),
	).openapi({
		param: {
			name: bookmarkHeader,
			in: "header",
			example: "00000000-00000001-00000000-00000000000000000000000000000000",
		},
		description: "An earlier answer's `X-D1-Bookmark`: read at least what it saw.",
	}),
};

/** Documents the bookmark on every response: present whenever the request reached the database. */
export const bookmarkResponseHeader = {
	[bookmarkHeader]: responseHeader(
		"Where this request left the database, on any response to a request that reached it (errors included); send it back to read your own writes from a replica.",
		{ optional: true },
	),
};

/** The operation's D1 session: reads from a replica as fresh as the client's bookmark, writes to the primary. */
export const d1Session: MiddlewareHandler<AppEnv> = async (c, next) => {
	const session = openSession(c.env.DB, {
		// Validated by the route before the first query; empty means absent.
		bookmark: c.req.header(bookmarkHeader) || undefined,
		write: isWrite(c.req.method),
	});
	c.set("db", session.db);
	await next();
	const bookmark = session.bookmark();
	if (bookmark) c.header(bookmarkHeader, bookmark);
};
