import { z } from "@hono/zod-openapi";
import { getTableColumns, type SQL, sql, type Table } from "drizzle-orm";
import { petNames } from "./db/pet-names";
import * as schema from "./db/schema";
import { unavailable } from "./http/platform";
import { jsonContent } from "./http/responses";
import { apiRoute } from "./http/route";
import { createRouter, retriedRead } from "./http/router";

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
		"Liveness and database readiness, for load balancers and uptime checks: 200 only when the database answers and holds every table and column this version reads (its migrations are applied).",
	errors: ["unavailable"],
	responses: {
		200: jsonContent(
			Health,
			"The service answers, and its database holds the schema it expects.",
		),
	},
});

/** A subquery that names every column of `table` and reads no row of it. */
const noRowOf = (table: Table) =>
	sql`(SELECT ${sql.join(Object.values(getTableColumns(table)), sql`, `)} FROM ${table} LIMIT 0)`;

/**
 * One statement over every table the code reads (the schema's, and the name index it cannot model), joined
 * rather than a compound SELECT, whose terms D1 limits: SQLite refuses to prepare it while a table or column is
 * missing, and it reads no row. Built on the first check, then kept.
 */
let schemaProbe: SQL | undefined;
const probe = () =>
	(schemaProbe ??= sql`SELECT 1 FROM ${sql.join(
		[...Object.values(schema), petNames].map(noRowOf),
		sql`, `,
	)}`);

/** GET /health: answers once the database does, with the schema this version expects. */
export const health = createRouter().openapi(getHealth, async (c) => {
	try {
		// Retried here, not by its router: its own 503 names the part that is down.
		await retriedRead(c, () => c.var.db.run(probe()));
	} catch {
		throw unavailable(
			"Part down: d1. The database is unreachable, or lacks the schema this version expects.",
		);
	}
	return c.json({ status: "ok" as const }, 200);
});
