import { z } from "@hono/zod-openapi";
import { getTableColumns, type SQL, sql, type Table } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { openSession } from "./db/client";
import { isD1Unavailable } from "./db/d1-errors";
import { petNames } from "./db/pet-names";
import * as schema from "./db/schema";
import type { AppEnv } from "./env";
import { log } from "./http/log";
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
	tag: {
		name: "Health",
		title: "Service health",
		description: "Whether the service and its database answer.",
		icon: "heart-pulse",
		parent: "Service",
	},
	summary: "Check the service",
	description:
		"Liveness and database readiness, for load balancers and uptime checks: 200 only when the database answers and holds every table and column this version reads (its migrations are applied).",
	errors: ["unavailable"],
	responses: {
		200: jsonContent(Health, "The service answers, and its database holds the schema it expects."),
	},
});

/** A subquery that names every column of `table` and reads no row of it. */
const noRowOf = (table: Table) =>
	sql`(SELECT ${sql.join(Object.values(getTableColumns(table)), sql`, `)} FROM ${table} LIMIT 0)`;

// One statement over every table the code reads (the name index too), which SQLite refuses to prepare while a table
// or column is missing; joined, since D1 limits a compound SELECT's terms. Built on the first check.
let schemaProbe: SQL | undefined;
const probe = () =>
	(schemaProbe ??= sql`SELECT 1 FROM ${sql.join(
		[...Object.values(schema), petNames].map(noRowOf),
		sql`, `,
	)}`);

/** GET /health: answers once the database does, with the schema this version expects. */
export const health = createRouter().openapi(getHealth, async (c) => {
	try {
		// Retried here, not around the handler (`retrying`): the catch turns D1's error into a 503.
		await retriedRead(c, () => c.var.db.run(probe()));
	} catch {
		throw unavailable(
			"Part down: d1. The database is unreachable, or lacks the schema this version expects.",
		);
	}
	return c.json({ status: "ok" as const }, 200);
});

const behindTheCode =
	"The local database lacks the schema this code reads: `npm run db:setup` applies the migrations in drizzle/ (after `npm run db:generate`, if src/db/schema.ts changed).";

/** Locally (`LOCAL_DEVELOPMENT`), a database behind the code is a 503, checked until it holds in this isolate. */
export const localSchemaCheck = (): MiddlewareHandler<AppEnv> => {
	let held = false;
	let logged = false;
	return async (c, next) => {
		if (held || c.env.LOCAL_DEVELOPMENT !== "true") return next();
		try {
			// Read as a request reads, retrying what D1 documents as retryable.
			const { db } = openSession(c.env.DB, { write: false });
			await retriedRead(c, () => db.run(probe()));
			held = true;
		} catch (error) {
			if (isD1Unavailable(error)) throw error;
			if (!logged) {
				logged = true;
				log("error", { part: "d1", requestId: c.var.requestId, error: behindTheCode });
			}
			throw unavailable(behindTheCode);
		}
		return next();
	};
};
