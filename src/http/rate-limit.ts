import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../models/error";
import { log } from "./log";

const addressOf = (c: Context) => c.req.header("cf-connecting-ip") ?? "unknown";

/** Counts the request under `key`, refusing it past the budget; a limiter's outage must not become the API's. */
const spend = async (c: Context<AppEnv>, limiter: RateLimit, key: string) => {
	let success = true;
	try {
		({ success } = await limiter.limit({ key }));
	} catch (error) {
		log("warn", { part: "rate-limiter", requestId: c.var.requestId, error: String(error) });
	}
	if (!success) {
		// The binding does not expose its period, which is 10 or 60 seconds: waiting 60 is never too early.
		throw new ApiError("rate_limited", undefined, undefined, { "Retry-After": "60" });
	}
};

/** Limits writes per client, after authentication. */
export const limitWrites: MiddlewareHandler<AppEnv> = async (c, next) => {
	await spend(c, c.env.WRITE_LIMITER, c.var.client?.budget ?? addressOf(c));
	await next();
};

/** Counts a read on its address's budget, a generous one of its own. */
export const spendReads = (c: Context<AppEnv>) => spend(c, c.env.READ_LIMITER, addressOf(c));

export const limitReads: MiddlewareHandler<AppEnv> = async (c, next) => {
	await spendReads(c);
	await next();
};

/** Counts a failed authentication on its address's own budget. */
export const limitFailedAuth = (c: Context<AppEnv>) =>
	spend(c, c.env.AUTH_FAILURE_LIMITER, addressOf(c));
