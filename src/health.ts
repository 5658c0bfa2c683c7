import { sql } from "drizzle-orm";
import { Hono } from "hono";
import type { AppEnv } from "./env";
import { ApiError } from "./http/errors";

/** Liveness and database reachability, for load balancers and uptime checks. */
export const health = new Hono<AppEnv>().get("/health", async (c) => {
	try {
		await c.var.db.run(sql`SELECT 1`);
	} catch {
		throw new ApiError("unavailable", "The database is unreachable.");
	}
	return c.json({ status: "ok" as const }, 200);
});
