import type { Context, MiddlewareHandler } from "hono";
import { cors as honoCors } from "hono/cors";
import { bookmarkHeader } from "./session";

/** Any origin may call the API: it authenticates with a bearer token, never with cookies. */
const origin = "*";

/**
 * The response headers a client needs besides the always-safe ones: a browser's script may read them, a 304 keeps them, and
 * an MCP tool's result carries them.
 */
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

/** Answers CORS preflights (`OPTIONS`): hono's middleware. */
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

/** The headers of every answer that is not a preflight, the same for every origin. */
const simple = Object.entries({
	"Access-Control-Allow-Origin": origin,
	"Access-Control-Expose-Headers": exposeHeaders.join(","),
});

const addSimpleHeaders = (c: Context) => {
	for (const [name, value] of simple) c.header(name, value);
};

/**
 * CORS for any origin: hono's middleware answers preflights. Every other answer gets its headers staged with
 * `c.header` before the handler, for the response the context builds: hono's middleware sets them on `c.res`
 * instead, which makes hono build each response twice (a read's share shows in test/bench/runtime.bench.ts). A
 * `Response` a handler made itself gets them afterwards.
 */
export const cors: MiddlewareHandler = async (c, next) => {
	if (c.req.method === "OPTIONS") return preflight(c, next);
	addSimpleHeaders(c);
	await next();
	if (!c.res.headers.has("Access-Control-Allow-Origin")) addSimpleHeaders(c);
};
