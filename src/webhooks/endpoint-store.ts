import { durations } from "../models/limits";
import type { DeliveryOutcome, WebhookDelivery } from "../models/webhook-delivery";
import type { AttemptResult, Delivery } from "./delivery";
import type { EndpointConfig } from "./endpoints";
import type { Subscription } from "./outbox-reads";

// A webhook's Durable Object storage (SQLite, private to the object): its config and delivery state, the
// deliveries it holds, its attempt log and a replay in progress. These statements are the tables' one
// description; `CREATE … IF NOT EXISTS` applies them when the object starts.

const schema = `
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

const rememberSettledMs = durations.settledDelivery;

/** The endpoint's config and delivery state. */
type Endpoint = EndpointConfig & {
	disabled: boolean;
	/** False while the `webhook.disabled` event of a disabling has yet to be recorded in D1. */
	disableRecorded: boolean;
	/** When the failures since the last success began (Unix ms); null while the last attempt succeeded. */
	failingSince: number | null;
	failures: number;
	lastStatus: number | null;
	lastAttemptAt: number | null;
};

/** A delivery due to be attempted, and how many attempts it has had. */
export type DueDelivery = Delivery & { attempts: number };

/** A replay in progress: the events a webhook receives after `after` are still to be queued. */
export type Replay = Subscription & { after: number };

/** One attempt as the log keeps it: as `listWebhookDeliveries` answers it, its times in Unix ms. */
type LoggedAttempt = Omit<WebhookDelivery, "nextAttemptAt" | "attemptedAt"> & {
	nextAttemptAt: number | null;
	attemptedAt: number;
};

type Row = Record<string, SqlStorageValue>;

/** The statements of a webhook's Durable Object over its SQLite storage. */
export const endpointStore = (sql: SqlStorage) => {
	sql.exec(schema);
	const rows = <T>(query: string, ...bindings: SqlStorageValue[]) =>
		sql.exec<Row>(query, ...bindings).toArray() as T[];
	/** Inserts the deliveries, due at `now`, and answers the ids of those it wrote. */
	const insert = (deliveries: Delivery[], now: number, onConflict: string) =>
		deliveries
			.filter(
				({ eventId, body }) =>
					sql.exec(
						`INSERT INTO deliveries (event_id, body, next_at) VALUES (?, ?, ?) ON CONFLICT (event_id) ${onConflict}`,
						eventId,
						body,
						now,
					).rowsWritten > 0,
			)
			.map(({ eventId }) => eventId);

	return {
		endpoint: (): Endpoint | undefined => {
			const [row] = rows<
				Omit<Endpoint, "secrets" | "disabled" | "disableRecorded"> & {
					secrets: string;
					disabled: number;
					disableRecorded: number;
				}
			>(
				`SELECT webhook_id AS webhookId, url, secrets, version, disabled, disable_recorded AS disableRecorded,
					failing_since AS failingSince, failures, last_status AS lastStatus, last_attempt_at AS lastAttemptAt
				FROM endpoint`,
			);
			return (
				row && {
					...row,
					secrets: JSON.parse(row.secrets),
					disabled: row.disabled === 1,
					disableRecorded: row.disableRecorded === 1,
				}
			);
		},

		/**
		 * Keeps `config` unless a newer version is held; `disabled` (from `updateWebhook`) pauses or resumes the
		 * deliveries, and resuming restarts the time an endpoint may fail (`durations.failingEndpoint`).
		 */
		configure: (config: EndpointConfig, disabled?: boolean) => {
			const flag = disabled === undefined ? null : Number(disabled);
			sql.exec(
				`INSERT INTO endpoint (id, webhook_id, url, secrets, version, disabled) VALUES (1, ?, ?, ?, ?, coalesce(?, 0))
				ON CONFLICT (id) DO UPDATE SET url = excluded.url, secrets = excluded.secrets, version = excluded.version,
					disabled = coalesce(?, disabled),
					disable_recorded = CASE WHEN ? IS NULL THEN disable_recorded ELSE 1 END,
					failing_since = CASE WHEN ? = 0 THEN NULL ELSE failing_since END
				WHERE excluded.version >= endpoint.version`,
				config.webhookId,
				config.url,
				JSON.stringify(config.secrets),
				config.version,
				flag,
				flag,
				flag,
				flag,
			);
		},

		/** Holds new deliveries, due at `now`; an event already held (or settled within a day) is ignored. */
		hold: (deliveries: Delivery[], now: number) => insert(deliveries, now, "DO NOTHING"),

		/**
		 * Holds deliveries that arrived while the endpoint is disabled, and says so in the attempt log: they are sent
		 * once it is enabled again.
		 */
		holdWhileDisabled: (deliveries: Delivery[], now: number) => {
			for (const eventId of insert(deliveries, now, "DO NOTHING")) {
				sql.exec(
					`INSERT INTO attempts (event_id, attempt, status, duration_ms, error, outcome, next_attempt_at, attempted_at)
					VALUES (?, 0, 0, 0, 'arrived while the webhook was disabled', 'held', NULL, ?)`,
					eventId,
					now,
				);
			}
		},

		/** Holds deliveries to send again from their first attempt, due at `now`, whatever became of them before. */
		requeue: (deliveries: Delivery[], now: number) =>
			insert(
				deliveries,
				now,
				"DO UPDATE SET body = excluded.body, attempts = 0, next_at = excluded.next_at, settled_at = NULL",
			),

		/** Up to `limit` deliveries due by `now`, longest waiting first. */
		due: (now: number, limit: number) =>
			rows<DueDelivery>(
				"SELECT event_id AS eventId, body, attempts FROM deliveries WHERE next_at <= ? ORDER BY next_at, event_id LIMIT ?",
				now,
				limit,
			),

		/** When the next delivery is due, if any is held. */
		nextDue: () =>
			rows<{ next: number | null }>("SELECT min(next_at) AS next FROM deliveries")[0].next,

		/**
		 * Logs an attempt and applies it: to the delivery (settled, or due again at `nextAttemptAt`) and to the
		 * endpoint's delivery state. The log shows no next attempt for a delivery that waits for a disabled endpoint
		 * to be enabled again.
		 */
		record: (
			delivery: DueDelivery,
			result: AttemptResult,
			outcome: DeliveryOutcome,
			nextAttemptAt: number | null,
			now: number,
		) => {
			sql.exec(
				`INSERT INTO attempts (event_id, attempt, status, duration_ms, error, outcome, next_attempt_at, attempted_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
				delivery.eventId,
				delivery.attempts + 1,
				result.status,
				result.durationMs,
				result.error,
				outcome,
				outcome === "disabled" ? null : nextAttemptAt,
				now,
			);
			sql.exec(
				"UPDATE deliveries SET attempts = attempts + 1, next_at = ?, settled_at = CASE WHEN ? IS NULL THEN ? END WHERE event_id = ?",
				nextAttemptAt,
				nextAttemptAt,
				now,
				delivery.eventId,
			);
			sql.exec(
				result.ok
					? "UPDATE endpoint SET failures = 0, failing_since = NULL, last_status = ?, last_attempt_at = ?"
					: "UPDATE endpoint SET failures = failures + 1, failing_since = coalesce(failing_since, ?2), last_status = ?1, last_attempt_at = ?2",
				result.status,
				now,
			);
		},

		/** Stops deliveries until `configure` resumes them; the `webhook.disabled` event is yet to be recorded. */
		disable: () => {
			sql.exec("UPDATE endpoint SET disabled = 1, disable_recorded = 0");
		},

		disableRecorded: () => {
			sql.exec("UPDATE endpoint SET disable_recorded = 1");
		},

		replay: (): Replay | undefined => {
			const [row] = rows<{ after: number; events: string; createdAt: string }>(
				"SELECT after, events, since AS createdAt FROM replay",
			);
			return row && { ...row, events: JSON.parse(row.events) };
		},

		/** Starts a replay, replacing one in progress. */
		startReplay: ({ after, events, createdAt }: Replay) => {
			sql.exec(
				"INSERT OR REPLACE INTO replay (id, after, events, since) VALUES (1, ?, ?, ?)",
				after,
				JSON.stringify(events),
				createdAt,
			);
		},

		/** Moves the replay past `after`, or ends it when nothing is left. */
		advanceReplay: (after: number | undefined) => {
			if (after === undefined) sql.exec("DELETE FROM replay");
			else sql.exec("UPDATE replay SET after = ?", after);
		},

		/** A page of the attempt log, newest first: those before attempt `before` (0: from the newest). */
		attempts: (before: number, limit: number) =>
			rows<LoggedAttempt>(
				`SELECT id, event_id AS eventId, attempt, status, duration_ms AS durationMs, error, outcome,
					next_attempt_at AS nextAttemptAt, attempted_at AS attemptedAt
				FROM attempts WHERE ? = 0 OR id < ? ORDER BY id DESC LIMIT ?`,
				before,
				before,
				limit,
			),

		/**
		 * Forgets settled deliveries after a day, attempts as the event feed forgets events, and deliveries held
		 * that long for a disabled webhook.
		 */
		prune: (now: number) => {
			sql.exec("DELETE FROM deliveries WHERE settled_at < ?", now - rememberSettledMs);
			sql.exec("DELETE FROM attempts WHERE attempted_at < ?", now - durations.eventRetention);
			// Held for a webhook disabled longer than the feed keeps events: a replay is what it needs then.
			sql.exec(
				"DELETE FROM deliveries WHERE settled_at IS NULL AND next_at < ?",
				now - durations.eventRetention,
			);
		},
	};
};

export type EndpointStore = ReturnType<typeof endpointStore>;
