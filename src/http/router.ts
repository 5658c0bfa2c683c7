import { OpenAPIHono, type RouteConfig, type RouteHandler } from "@hono/zod-openapi";
import type { Context, Next } from "hono";
import { retryRead } from "../db/read-retry";
import type { AppEnv } from "../env";
import { log } from "./log";
import { validationHook } from "./validation";

/** Runs `read`, a read of request `c`, with {@link retryRead}; a read a retry served is logged, no client saw it. */
export const retriedRead = <T>(c: Context<AppEnv>, read: () => Promise<T>) =>
	retryRead(read, (recovered) =>
		log("warn", { part: "d1", requestId: c.var.requestId, recovered }),
	);

type Handler = (c: Context<AppEnv>, next: Next) => unknown;

/** A read's handler, run again whole while D1 fails it retryably; never a write's, which must not run twice. */
export const retrying = <H extends Handler>(handler: H) =>
	((c: Context<AppEnv>, next: Next) => retriedRead(c, async () => handler(c, next))) as H;

/** A resource router whose validation failures all render as `validation_error`. */
export const createRouter = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

/** A handler typed from its route: a status or body the route does not declare is a type error. */
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;
