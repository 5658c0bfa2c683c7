import type { Context } from "hono";
import type { WriteContext } from "../db/write";
import type { AppEnv } from "../env";
import { ifMatch } from "./conditional";

/** What a write takes from its request: its database, time, `If-Match` tags and `Idempotency-Key`. */
export const writeContext = (c: Context<AppEnv>): WriteContext => ({
	db: c.var.db,
	now: c.var.now(),
	ifMatch: ifMatch(c),
	key: c.var.idempotencyKey,
});
