import { OpenAPIHono, type RouteConfig, type RouteHandler } from "@hono/zod-openapi";
import type { Context, Next } from "hono";
import { retryRead } from "../db/read-retry";
import type { AppEnv } from "../env";
import { log } from "./log";
import { isWrite } from "./methods";
import { validationHook } from "./validation";

/** Runs `read`, a read of request `c`, with {@link retryRead}; a read a retry served is logged, no client saw it. */
export const retriedRead = <T>(c: Context<AppEnv>, read: () => Promise<T>) =>
	retryRead(read, (recovered) =>
		log("warn", { part: "d1", requestId: c.var.requestId, recovered }),
	);

type Handler = (c: Context<AppEnv>, next: Next) => unknown;

/**
 * A resource router whose validation failures all render as `validation_error`, and whose read handlers run
 * again, whole, while D1 fails them retryably: D1's statements stay D1's own, and a write never runs twice.
 */
export const createRouter = () => {
	const router = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
	const register = router.openapi;
	router.openapi = ((route: RouteConfig, handler: Handler, hook?: never) =>
		register(
			route,
			(isWrite(route.method)
				? handler
				: (c: Context<AppEnv>, next: Next) =>
						retriedRead(c, async () => handler(c, next))) as never,
			hook,
		)) as typeof register;
	return router;
};

/** A handler typed from its route: a status or body the route does not declare is a type error. */
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;
