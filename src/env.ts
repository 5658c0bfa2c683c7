import type { RequestIdVariables } from "hono/request-id";
import type { Db } from "./db/client";
import type { IdempotencyKey } from "./db/idempotency";

/** The Hono environment every router and middleware of the app shares. */
export type AppEnv = {
	Bindings: Env;
	Variables: RequestIdVariables & {
		db: Db;
		/** The current time in Unix milliseconds; injectable so that tests can stand at any instant. */
		now: () => number;
		/** The authenticated client: its token's SHA-256, in hex (src/http/auth.ts). */
		client?: string;
		/** The request's `Idempotency-Key`, on an idempotent route (src/http/idempotency.ts). */
		idempotencyKey?: IdempotencyKey;
	};
};
