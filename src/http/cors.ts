import type { Context, MiddlewareHandler } from "hono";
import { cors as honoCors } from "hono/cors";
import { bookmarkHeader } from "./session";

/** Any origin may call the API: it authenticates with a bearer token, never with cookies. */
const origin = "*";

/** Response headers a client needs beyond the safelisted ones: scripts read them, a 304 and MCP results keep them. */
export const exposeHeaders = [
	"Link",
	"ETag",
	"Location",
	"Deprecation",
	"Sunset",
	"Retry-After",
	"X-Request-Id",
	"Idempotency-Replayed",
	bookmarkHeader,
];

const preflight = honoCors({
	origin,
	allowHeaders: [
		"Authorization",
		"Content-Type",
		"Idempotency-Key",
		"If-Match",
		"If-None-Match",
		"X-Request-Id",
		bookmarkHeader,
	],
	allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
	exposeHeaders,
	maxAge: 86400,
});

const exposed = exposeHeaders.join(",");

/** The headers of every answer that is not a preflight, the same for every origin. */
const addSimpleHeaders = (c: Context) => {
	c.header("Access-Control-Allow-Origin", origin);
	c.header("Access-Control-Expose-Headers", exposed);
};

/** CORS for any origin: hono's answers preflights; ours stage the rest before the handler (hono's builds twice). */
export const cors: MiddlewareHandler = async (c, next) => {
	if (c.req.method === "OPTIONS") return preflight(c, next);
	addSimpleHeaders(c);
	await next();
	// A handler's own `Response` lacks the staged headers.
	if (!c.res.headers.has("Access-Control-Allow-Origin")) addSimpleHeaders(c);
};
