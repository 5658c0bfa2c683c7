import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../models/error";

// The binding does not expose its period, which is 10 or 60 seconds: waiting 60 is never too early.
const retryAfterSeconds = 60;

/** Limits writes per client with the Workers Rate Limiting binding configured in wrangler.toml. */
export const limitWrites: MiddlewareHandler<AppEnv> = async (c, next) => {
	const key = c.req.header("cf-connecting-ip") ?? "anonymous";
	const { success } = await c.env.WRITE_LIMITER.limit({ key });
	if (!success) {
		throw new ApiError("rate_limited", undefined, undefined, {
			"Retry-After": String(retryAfterSeconds),
		});
	}
	await next();
};
