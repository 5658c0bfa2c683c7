import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getEndpoint } from "../src/resources/webhooks/queries";
import { endpointOf } from "../src/webhooks/endpoint-config";
import {
	attemptsOf,
	categoryEvent,
	createWebhook,
	deliverAt,
	hour,
	later,
	mockReceivers,
	webhookState,
} from "./support/webhooks";

afterEach(() => {
	vi.restoreAllMocks();
});

// The tables as a webhook's Durable Object made them when it started, before its storage had migrations.
const legacySchema = `
CREATE TABLE IF NOT EXISTS endpoint (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	webhook_id INTEGER NOT NULL,
	url TEXT NOT NULL,
	secrets TEXT NOT NULL,
	version INTEGER NOT NULL,
	disabled INTEGER NOT NULL DEFAULT 0,
	disable_recorded INTEGER NOT NULL DEFAULT 1,
	failing_since INTEGER,
	failures INTEGER NOT NULL DEFAULT 0,
	last_status INTEGER,
	last_attempt_at INTEGER
);
CREATE TABLE IF NOT EXISTS deliveries (
	event_id INTEGER PRIMARY KEY,
	body TEXT NOT NULL,
	attempts INTEGER NOT NULL DEFAULT 0,
	next_at INTEGER,
	settled_at INTEGER
);
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (next_at) WHERE next_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS deliveries_settled ON deliveries (settled_at) WHERE settled_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS attempts (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	event_id INTEGER NOT NULL,
	attempt INTEGER NOT NULL,
	status INTEGER NOT NULL,
	duration_ms INTEGER NOT NULL,
	error TEXT,
	outcome TEXT NOT NULL,
	next_attempt_at INTEGER,
	attempted_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS attempts_attempted_at ON attempts (attempted_at);
CREATE TABLE IF NOT EXISTS replay (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	after INTEGER NOT NULL,
	events TEXT NOT NULL,
	since TEXT NOT NULL
);`;

/** The tables of an object's storage, but the platform's own. */
const tablesOf = (sql: SqlStorage) =>
	sql
		.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
		.toArray()
		.map(({ name }) => name)
		.filter((name) => !name.startsWith("_cf_") && !name.startsWith("sqlite_"));

describe("a webhook's Durable Object storage", () => {
	it("migrates an object deployed before it had migrations, keeping its log, its state and what it holds", async () => {
		const receivers = mockReceivers();
		const webhook = await createWebhook(["category.created"]);
		const { eventId } = await categoryEvent();
		const { config } = await getEndpoint(drizzle(env.DB), webhook.id);
		const body = JSON.stringify({ id: `evt_${eventId}`, type: "category.created" });
		const endpoint = endpointOf(env, webhook.id);
		// As such an object left its storage: one delivery, attempted an hour ago, answered 500, due again now.
		await runInDurableObject(endpoint, (_, { storage: { sql } }) => {
			for (const table of tablesOf(sql)) sql.exec(`DROP TABLE ${table}`);
			sql.exec(legacySchema);
			sql.exec(
				`INSERT INTO endpoint (id, webhook_id, url, secrets, version, failing_since, failures, last_status, last_attempt_at)
				VALUES (1, ?, ?, ?, ?, ?, 1, 500, ?)`,
				webhook.id,
				config.url,
				JSON.stringify(config.secrets),
				config.version,
				later - hour,
				later - hour,
			);
			sql.exec(
				"INSERT INTO deliveries (event_id, body, attempts, next_at) VALUES (?, ?, 1, ?)",
				eventId,
				body,
				later,
			);
			sql.exec(
				`INSERT INTO attempts (event_id, attempt, status, duration_ms, outcome, next_attempt_at, attempted_at)
				VALUES (?, 1, 500, 12, 'retrying', ?, ?)`,
				eventId,
				later,
				later - hour,
			);
		});
		await evictDurableObject(endpoint);

		expect(await attemptsOf(webhook.id)).toMatchObject([
			{ eventId, attempt: 1, status: 500, outcome: "retrying" },
		]);
		expect(await webhookState(webhook.id)).toMatchObject({ failures: 1, lastStatus: 500 });
		// Started again, it has every migration already: none runs twice.
		await evictDurableObject(endpoint);
		await deliverAt(webhook.id, later);
		expect(receivers.received(webhook.url).map((request) => request.body)).toEqual([body]);
		expect((await attemptsOf(webhook.id))[0]).toMatchObject({ outcome: "delivered", attempt: 2 });
		expect(await webhookState(webhook.id)).toMatchObject({ failures: 0, lastStatus: 204 });
	});
});
