import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { ApiError } from "./http/errors";
import { jsonContent } from "./http/responses";
import { apiRoute } from "./http/route";
import { createRouter } from "./http/router";

const Health = z
	.object({ status: z.literal("ok") })
	.openapi("Health", { example: { status: "ok" } });

const getHealth = apiRoute({
	method: "get",
	path: "/health",
	operationId: "getHealth",
	tag: "Health",
	summary: "Check the service",
	description:
		"Liveness and database reachability, for load balancers and uptime checks.",
	errors: ["unavailable"],
	responses: {
		200: jsonContent(Health, "The service and its database answer."),
	},
});

/** GET /health: answers once the database does. */
export const health = createRouter().openapi(getHealth, async (c) => {
	try {
		await c.var.db.run(sql`SELECT 1`);
	} catch {
		throw new ApiError("unavailable");
	}
	return c.json({ status: "ok" as const }, 200);
});
