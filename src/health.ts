import { sql } from "drizzle-orm";
import { Hono } from "hono";
import type { AppEnv } from "./env";
import { ApiError } from "./http/errors";
import { d1Session } from "./http/session";

/** Liveness and database reachability, for load balancers and uptime checks. */
export const health = new Hono<AppEnv>().get(
	"/health",
	d1Session,
	async (c) => {
		try {
			await c.var.db.run(sql`SELECT 1`);
		} catch {
			throw new ApiError("unavailable", "The database is unreachable.");
		}
		return c.json({ status: "ok" as const }, 200);
	},
);
