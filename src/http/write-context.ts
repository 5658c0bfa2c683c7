import type { Context } from "hono";
import type { WriteContext } from "../db/write";
import type { AppEnv } from "../env";
import { ifMatch } from "./conditional";

/**
 * What a write takes from its request: its database session, its time, its `If-Match` ETags, whether it replaces
 * (`PUT`), and its `Idempotency-Key` (src/http/idempotency.ts), whose replay marks the response.
 */
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
