import type { Context } from "hono";
import { etag, RETAINED_304_HEADERS } from "hono/etag";
import { exposeHeaders } from "./cors";

/** The ETags `If-Match` names; undefined for any (none, or `*`). Weak tags never match (RFC 9110 §13.1.1). */
export const ifMatch = (c: Context): string[] | undefined => {
	const header = c.req.header("if-match")?.trim();
	if (!header || header === "*") return undefined;
	return header
		.split(",")
		.map((tag) => tag.trim())
		.filter((tag) => tag.startsWith('"'));
};

/** Sets the representation's strong `ETag` and returns the body without it. */
export const withETag = <T extends { etag: string }>(c: Context, { etag, ...body }: T) => {
	c.header("ETag", etag);
	return body;
};

/** Answers `If-None-Match` with 304, keeping the headers a client needs on every response. */
export const notModified = etag({
	retainedHeaders: [
		...RETAINED_304_HEADERS,
		...exposeHeaders,
		"Access-Control-Allow-Origin",
		"Access-Control-Expose-Headers",
	],
});
