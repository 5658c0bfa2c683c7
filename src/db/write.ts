import { and, eq, getTableColumns, is, lt, notExists, SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { ApiError } from "../models/error";
import type { EventType } from "../models/event-types";
import { durations } from "../models/limits";
import type { Db } from "./client";
import type { Resource } from "./resource";
import { events, idempotencyKeys } from "./schema";

// D1 has no interactive transactions, so a write is one batch (one round trip, atomic) with every precondition in
// its SQL. Its statements run in the order written; the statements after the write follow it through
// `afterChange`, and a probe read last says, by name, what it answers or why nothing changed.

/** A keyed request: its key, and the hash of what it asks. */
export type IdempotencyKey = { key: string; requestHash: string };

/** Holds for a keyed create's record once its window has closed by `now`. */
const expired = (now: number) => lt(idempotencyKeys.createdAt, now - durations.idempotencyWindow);

/** Deletes the records whose window has closed by `now`: the Cron Trigger's work. */
export const pruneIdempotencyKeys = (db: Db, now: number) =>
	db.delete(idempotencyKeys).where(expired(now));

/** What a write takes from its request, as plain values. */
export type WriteContext = {
	db: Db;
	/** The request's time, in Unix milliseconds. */
	now: number;
	/** The ETags `If-Match` names: a change runs only while the resource has one of them. */
	ifMatch?: string[];
	/** The `Idempotency-Key` a create runs under. */
	key?: IdempotencyKey;
};

/** In a statement's WHERE: the statement right before it changed a row (SQLite's `changes()`). */
export const afterChange = sql`changes() > 0`;

/** Values of a row of `table` by field name: each a value, or SQL. */
type Values<T extends SQLiteTable> = {
	[K in keyof T["$inferInsert"]]?: T["$inferInsert"][K] | SQL;
};

/** The selection an `INSERT … SELECT` into `table` takes: each column's value, else its default, else NULL. */
const rowOf = <T extends SQLiteTable>(table: T, values: Values<T>) =>
	Object.fromEntries(
		Object.entries(getTableColumns(table)).map(([field, column]) => {
			const given = (values as Record<string, unknown>)[field];
			const value = given !== undefined ? given : (column.default ?? column.defaultFn?.() ?? null);
			const chunk = is(value, SQL)
				? value
				: value === null
					? sql`null`
					: sql`${sql.param(value, column)}`;
			return [field, chunk.as(field)];
		}),
	) as { [K in keyof T["$inferInsert"]]-?: SQL.Aliased<T["$inferInsert"][K]> };

/**
 * A row of `table` inserted only `where` it holds, and not over a row a unique index already holds. (SQLite reads
 * `ON CONFLICT` after an `INSERT … SELECT` only once the SELECT has a WHERE: it always has one.)
 */
export const insertWhere = <T extends SQLiteTable>(
	db: Db,
	table: T,
	values: Values<T>,
	where: SQL | undefined,
) =>
	db
		.insert(table)
		.select(
			db
				.select(rowOf(table, values))
				.from(sql`(select 1)`)
				.where(where ?? sql`1`),
		)
		.onConflictDoNothing();

type Statement = BatchItem<"sqlite">;

/** What an event says of a resource that no row shows as it stands (one deleted): its path, and its data. */
type Said = { subject: string; data: SQL };

/**
 * Event `type`, recorded when the statement before it changed a row: of `resource` `id` as it stands now, or
 * what is `said` of one.
 */
export function eventRow(
	ctx: WriteContext,
	type: EventType,
	resource: Resource,
	id: number | SQL,
): Statement;
export function eventRow(ctx: WriteContext, type: EventType, said: Said): Statement;
export function eventRow(
	{ db, now }: WriteContext,
	type: EventType,
	of: Resource | Said,
	id?: number | SQL,
) {
	const createdAt = new Date(now).toISOString();
	if ("data" in of) return insertWhere(db, events, { type, createdAt, ...of }, afterChange);
	const row = rowOf(events, { type, subject: of.subject, createdAt, data: of.json });
	return db
		.insert(events)
		.select(of.select(db, row).where(and(eq(of.key, id as number | SQL), afterChange)));
}

/**
 * What a create under an `Idempotency-Key` adds to its batch (nothing without one): first, `forget` its record
 * once the window closed (the Cron Trigger prunes the rest in bulk); `unused`, a condition of its insert; last,
 * `record` the new resource as answered (or `body`); `stored`, for its probe, an earlier request's record, which
 * `replay` answers (422 for another body).
 */
export const idempotencyRecord = <R extends Resource>(
	{ db, now, key }: WriteContext,
	resource: R,
	body: SQL = resource.json,
) => {
	const ofKey = key && eq(idempotencyKeys.key, key.key);
	const row = key && { ...key, body, etag: resource.etag, createdAt: now };
	// What an earlier request under the key stored, built only when there is a key: a create without one reads null.
	const stored = ofKey
		? sql`${db
				.select({
					stored: sql`json_object('body', json(${idempotencyKeys.body}), 'etag', ${idempotencyKeys.etag}, 'requestHash', ${idempotencyKeys.requestHash})`,
				})
				.from(idempotencyKeys)
				.where(ofKey)}`
		: sql`null`;
	return {
		forget: ofKey ? [db.delete(idempotencyKeys).where(and(ofKey, expired(now)))] : [],
		unused: ofKey && notExists(db.select({ one: sql`1` }).from(idempotencyKeys).where(ofKey)),
		record: row
			? [
					db
						.insert(idempotencyKeys)
						.select(
							resource
								.select(db, rowOf(idempotencyKeys, row))
								.where(and(eq(resource.key, resource.newest), afterChange)),
						),
				]
			: [],
		stored: stored.mapWith((text: string) => JSON.parse(text) as Stored),
		/** The earlier request's answer under the key; 422 when that request sent another body. */
		replay: (earlier: Stored) => {
			if (earlier.requestHash !== key?.requestHash) throw new ApiError("idempotency_key_reused");
			return { ...earlier.body, etag: earlier.etag } as Awaited<ReturnType<R["find"]>>;
		},
	};
};

/** A keyed create's record, as its probe reads it. */
type Stored = { body: Record<string, unknown>; etag: string; requestHash: string };

/** A probe's fields, each SQL read by name. */
type Probe = Record<string, SQL<unknown>>;

/** What D1 answers for a statement of a batch that writes. */
type Ran = { meta: { changes: number } };

/**
 * Runs a write as one batch: the statements `before` it, the `write` itself, those `after` it (each runs only when
 * the one before it changed a row: {@link afterChange}), then its `probe`, read by name. Answers the probe, and
 * whether the write changed a row (`written`). Throws when a statement after a write that changed a row changed
 * none: those after it were silently skipped.
 */
export const runWrite = async <P extends Probe>(
	db: Db,
	{
		before = [],
		write,
		after = [],
		probe,
	}: { before?: Statement[]; write: Statement; after?: Statement[]; probe: P },
) => {
	// Each field by its name: D1 answers a batch's rows by column name, which two equal expressions would share.
	const fields = Object.entries(probe).map(([name, field]) => [name, field.as(name)] as const);
	const read = db.select(Object.fromEntries(fields)).from(sql`(select 1)`);
	const statements: [Statement, ...Statement[]] = [write, ...after, read];
	const results = await db.batch([...before, ...statements] as typeof statements);
	// D1 counts the rows a statement's triggers change too: a statement that ran changed one or more.
	const changed = (index: number) => (results[before.length + index] as Ran).meta.changes > 0;
	const written = changed(0);
	const skipped = after.findIndex((_, index) => !changed(index + 1));
	if (written && skipped >= 0) {
		throw new Error(
			`Statement ${skipped + 1} after the write changed no row, so those after it did not run.`,
		);
	}
	const [row] = results.at(-1) as { [K in keyof P]: P[K]["_"]["type"] }[];
	return { ...row, written };
};
