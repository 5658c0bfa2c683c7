import { OpenAPIHono, type RouteConfig, type RouteHandler } from "@hono/zod-openapi";
import type { Context, Next } from "hono";
import { isD1Retryable } from "../db/d1-errors";
import type { AppEnv } from "../env";
import { log } from "./log";
import { validationHook } from "./validation";

/** How long a read keeps retrying D1 before the client is told (README: "When the platform fails"). */
export const readRetryBudgetMs = 2000;
const firstDelayMs = 50;
const longestDelayMs = 500;

/**
 * Runs `read`, a read of request `c`, again while it fails retryably, with exponential backoff and full jitter, until
 * the budget would be overspent (then the last error stands); a read a retry saved is logged, no client saw it.
 */
export const retriedRead = async <T>(c: Context<AppEnv>, read: () => Promise<T>): Promise<T> => {
	const deadline = Date.now() + readRetryBudgetMs;
	for (let retries = 0; ; retries++) {
		try {
			const result = await read();
			if (retries > 0) log("warn", { part: "d1", requestId: c.var.requestId, recovered: retries });
			return result;
		} catch (error) {
			const delay = Math.random() * Math.min(longestDelayMs, firstDelayMs * 2 ** retries);
			if (!isD1Retryable(error) || Date.now() + delay > deadline) throw error;
			await new Promise((resolve) => setTimeout(resolve, delay));
		}
	}
};

/** A read's handler, run again whole while D1 fails it retryably; never a write's, which must not run twice. */
export const retrying = <H extends (c: Context<AppEnv>, next: Next) => unknown>(handler: H) =>
	((c: Context<AppEnv>, next: Next) => retriedRead(c, async () => handler(c, next))) as H;

/** A resource router whose validation failures all render as `validation_error`. */
export const createRouter = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

/** A handler typed from its route: a status or body the route does not declare is a type error. */
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;
