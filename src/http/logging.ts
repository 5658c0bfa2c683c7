import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "../env";

/** One structured JSON line per request, for Workers Logs. */
export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
	const start = Date.now();
	await next();
	console.log(
		JSON.stringify({
			requestId: c.var.requestId,
			method: c.req.method,
			route: routePath(c, -1),
			path: c.req.path,
			status: c.res.status,
			durationMs: Date.now() - start,
		}),
	);
};
