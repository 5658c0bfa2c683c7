import type { Context } from "hono";
import type { WriteContext } from "../db/write";
import type { AppEnv } from "../env";
import { ifMatch } from "./conditional";

/** What a write takes from its request; a replay of its `Idempotency-Key` marks the response. */
export const writeContext = (c: Context<AppEnv>): WriteContext => {
	const key = c.var.idempotencyKey;
	return {
		db: c.var.db,
		now: c.var.now(),
		ifMatch: ifMatch(c),
		replace: c.req.method === "PUT",
		key: key && { ...key, onReplay: () => c.header("Idempotency-Replayed", "true") },
	};
};
