import type { RequestIdVariables } from "hono/request-id";
import type { Db } from "./db/client";
import type { IdempotencyKey } from "./db/write";
import type { Client } from "./models/scopes";

/** The Hono environment every router and middleware of the app shares. */
export type AppEnv = {
	/** The Worker's bindings; a tool call of `/mcp` is also given the client its MCP request authenticated. */
	Bindings: Env & { ACTING_CLIENT?: Client };
	Variables: RequestIdVariables & {
		db: Db;
		/** The current time in Unix milliseconds; injectable so that tests can stand at any instant. */
		now: () => number;
		/** The authenticated client (src/http/auth.ts). */
		client?: Client;
		/** The request's `Idempotency-Key`, on an idempotent route (src/http/idempotency.ts). */
		idempotencyKey?: IdempotencyKey;
	};
};
