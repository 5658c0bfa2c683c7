import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { EventType } from "../../models/event-types";
import type { DeliveryOutcome } from "../../models/webhook-delivery";
import type { EndpointConfig } from "../endpoint-config";

// A webhook's Durable Object storage (SQLite): `npm run db:generate` writes its migrations to drizzle/webhook-endpoint.

/** One row: the endpoint's config and delivery state. */
export const endpoint = sqliteTable(
	"endpoint",
	{
		id: integer("id").primaryKey(),
		webhookId: integer("webhook_id").notNull(),
		url: text("url").notNull(),
		secrets: text("secrets", { mode: "json" }).notNull().$type<EndpointConfig["secrets"]>(),
		version: integer("version").notNull(),
		disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
		/** False while the `webhook.disabled` event of a disabling has yet to be recorded in D1. */
		disableRecorded: integer("disable_recorded", { mode: "boolean" }).notNull().default(true),
		/** When the failures since the last success began (Unix ms); null while the last attempt succeeded. */
		failingSince: integer("failing_since"),
		failures: integer("failures").notNull().default(0),
		lastStatus: integer("last_status"),
		lastAttemptAt: integer("last_attempt_at"),
	},
	(t) => [check("endpoint_one_row", sql`${t.id} = 1`)],
);

/** The deliveries it holds: due at `nextAt`, or settled at `settledAt`. */
export const deliveries = sqliteTable(
	"deliveries",
	{
		eventId: integer("event_id").primaryKey(),
		body: text("body").notNull(),
		attempts: integer("attempts").notNull().default(0),
		nextAt: integer("next_at"),
		settledAt: integer("settled_at"),
	},
	(t) => [
		index("deliveries_due").on(t.nextAt).where(sql`${t.nextAt} IS NOT NULL`),
		index("deliveries_settled").on(t.settledAt).where(sql`${t.settledAt} IS NOT NULL`),
	],
);

/** The attempt log, times in Unix ms. */
export const attempts = sqliteTable(
	"attempts",
	{
		id: integer("id").primaryKey({ autoIncrement: true }),
		eventId: integer("event_id").notNull(),
		attempt: integer("attempt").notNull(),
		status: integer("status").notNull(),
		durationMs: integer("duration_ms").notNull(),
		error: text("error"),
		outcome: text("outcome").notNull().$type<DeliveryOutcome>(),
		nextAttemptAt: integer("next_attempt_at"),
		attemptedAt: integer("attempted_at").notNull(),
	},
	(t) => [index("attempts_attempted_at").on(t.attemptedAt)],
);

/** One row, while a replay is in progress: the events after `after` are still to be queued. */
export const replay = sqliteTable(
	"replay",
	{
		id: integer("id").primaryKey(),
		after: integer("after").notNull(),
		events: text("events", { mode: "json" }).notNull().$type<EventType[]>(),
		createdAt: text("since").notNull(),
	},
	(t) => [check("replay_one_row", sql`${t.id} = 1`)],
);
