import { and, eq, getTableColumns, is, lt, not, SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable, SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { ApiError } from "../models/error";
import type { EventType } from "../models/event-types";
import type { Db } from "./client";
import { type IdempotencyKey, idempotencyWindowMs } from "./idempotency";
import type { Resource } from "./resource";
import { events, idempotencyKeys } from "./schema";

// The one way the API changes data. D1 has no interactive transactions, so a write is one batch (one round trip,
// atomic) with every precondition in its SQL: a change runs only while its conditions hold, its events (the
// outbox, API.md §9) and its idempotency record only when it changed a row, and a probe in the same batch says
// why nothing changed. Statements are built per request from the tables, values by field name.

/** What a write needs of its request. */
export type WriteContext = {
	db: Db;
	/** The request's time, in Unix milliseconds. */
	now: number;
	/** The ETags `If-Match` names: a change runs only while the resource has one of them. */
	ifMatch?: string[];
	/** A `PUT`: the fields a change does not carry are cleared (their column's default, or null). */
	replace?: boolean;
	/** The `Idempotency-Key` a create runs under, and what hears that it answered an earlier request's response. */
	key?: IdempotencyKey & { onReplay: () => void };
};

type Step = BatchItem<"sqlite">;

/** A row of `table` by field name, each value a value or SQL; the fields its table gives a default may be left out. */
type RowValues<T extends SQLiteTable> = {
	[K in keyof T["$inferInsert"]]: T["$inferInsert"][K] | SQL;
};

/** What a column holds when a write does not say: its default, or NULL. */
const defaultOf = (column: SQLiteColumn) => column.default ?? column.defaultFn?.() ?? null;

/**
 * A row of `table` as a SELECT's fields, in the table's column order (as `INSERT … SELECT` needs): `values` by
 * field name, each column it leaves out its default, or NULL.
 */
const rowOf = <T extends SQLiteTable>(table: T, values: RowValues<T>) =>
	Object.fromEntries(
		Object.entries(getTableColumns(table)).map(([field, column]) => {
			const given = (values as Record<string, unknown>)[field];
			const value = given === undefined ? defaultOf(column) : given;
			return [field, sql`${is(value, SQL) ? value : sql.param(value, column)}`.as(column.name)];
		}),
	) as { [K in keyof T["$inferInsert"]]-?: SQL.Aliased };

/**
 * Inserts one row of `table`, `values` by field name, only where `where` holds; a row that a unique index
 * already holds is not inserted either.
 */
const insertWhere = <T extends SQLiteTable>(db: Db, table: T, values: RowValues<T>, where: SQL) =>
	db
		.insert(table)
		.select(
			// Always a WHERE: SQLite would read ON CONFLICT right after FROM as a join's ON.
			db.select(rowOf(table, values)).from(sql`(SELECT 1)`).where(where),
		)
		.onConflictDoNothing();

/** `EXISTS (SELECT 1 FROM table WHERE condition)`: a precondition, checked by the statement it guards. */
export const exists = (table: SQLiteTable, condition: SQL | undefined) =>
	sql<boolean>`EXISTS (SELECT 1 FROM ${table} WHERE ${condition ?? sql`1`})`;

/** True when the statement right before it in the batch changed a row (SQLite's `changes()`). */
const changed = sql`changes() = 1`;

/**
 * An event a write records: its type, and the resource it carries, as the API answers it after the change (or
 * `data` built from its row).
 */
type EventOf = { type: EventType; resource: Resource; key: SQL | number; data?: SQL };

/** Inserts a row of `table` built over the resource `key`, `values` by field name, when `condition` holds. */
const insertOver = <T extends SQLiteTable>(
	db: Db,
	table: T,
	{ resource, key }: { resource: Resource; key: SQL | number },
	values: RowValues<T>,
	condition: SQL,
) =>
	db
		.insert(table)
		.select(resource.select(db, rowOf(table, values)).where(and(eq(resource.key, key), condition)));

/** Records the event when `condition` holds. */
const recordEvent = (db: Db, at: string, event: EventOf, condition: SQL) => {
	const { type, resource, data = resource.json } = event;
	const row = { type, subject: resource.subject, createdAt: at, data };
	return insertOver(db, events, event, row, condition);
};

/** A one-row SELECT of named conditions, aliased by name (a D1 batch answers rows as objects). */
const probe = <K extends string>(db: Db, conditions: Record<K, SQL>) =>
	db
		.select(
			Object.fromEntries(
				Object.entries<SQL>(conditions).map(([name, condition]) => [
					name,
					sql<boolean>`${condition}`.mapWith(Boolean).as(name),
				]),
			) as Record<K, SQL.Aliased<boolean>>,
		)
		.from(sql`(SELECT 1)`);

/** Runs the steps as one batch, in order, and answers each result by its name. */
const runBatch = async <S extends Record<string, Step | undefined>>(db: Db, steps: S) => {
	const named = Object.entries(steps).filter(
		(step): step is [string, Step] => step[1] !== undefined,
	);
	const [first, ...rest] = named.map(([, statement]) => statement);
	const results = await db.batch([first, ...rest]);
	return Object.fromEntries(named.map(([name], index) => [name, results[index]])) as {
		[K in keyof S]: Awaited<S[K]>;
	};
};

/** Rows a D1 run changed. */
const changes = (result: { meta: { changes: number } } | undefined) => result?.meta.changes ?? 0;

/** The resource as the API answers it, with its ETag. */
type Answered<R extends Resource> = Awaited<ReturnType<R["find"]>>;

/** The fields a `PUT` clears when it does not carry them: its own table's optional columns, to their default. */
const cleared = (resource: Resource) =>
	Object.fromEntries(
		Object.entries(resource.projection as Record<string, SQLiteColumn>).flatMap(
			([field, column]) =>
				column.table !== resource.table || column.primary || (column.notNull && !column.hasDefault)
					? []
					: [[field, defaultOf(column)]],
		),
	);

type Conditions = {
	/** A condition of its row under which the change is refused, and the error that says so. */
	refuse?: { when: SQL; error: ApiError };
	/** A change made first, under the same conditions, recording its event when it changed a row. */
	first?: (allowed: SQL) => { change: Step; event: EventOf } | undefined;
};

type Update<R extends Resource> = Conditions & {
	/** The fields to set, by name; the version (and so the ETag) moves with them. */
	set: SQLiteUpdateSetSource<R["table"]>;
	/** The event it records, carrying the resource (or `data` built from its row). */
	event?: EventType | { type: EventType; data: SQL };
	/** A row for which this holds is answered as it is, with no write and no event (a no-op). */
	unchangedWhen?: SQL;
};

type Deletion = Conditions & { delete: true; event?: EventType };

/**
 * Changes (or deletes) the resource `id` only if it exists, still has one of the `If-Match` ETags and is not
 * refused, with its events, in one atomic batch. Answers the changed resource, or throws why nothing changed: 404,
 * 412 `precondition_failed`, or the refusal's error.
 */
export function changeOne<R extends Resource>(
	ctx: WriteContext,
	resource: R,
	id: number,
	change: Update<R>,
): Promise<Answered<R>>;
export function changeOne<R extends Resource>(
	ctx: WriteContext,
	resource: R,
	id: number,
	change: Deletion,
): Promise<void>;
export async function changeOne<R extends Resource>(
	{ db, now, ifMatch, replace }: WriteContext,
	resource: R,
	id: number,
	change: Update<R> | Deletion,
): Promise<Answered<R> | undefined> {
	const { table, key } = resource;
	const at = new Date(now).toISOString();
	const row = eq(key, id);
	/** Whether the resource exists with `condition` (read through its join, which a DELETE cannot name). */
	const holds = (condition?: SQL) =>
		sql`EXISTS ${resource.select(db, { one: sql`1` }).where(and(row, condition))}`;
	// The tags travel as one JSON parameter: a header naming many cannot exceed D1's bound-parameter limit.
	const current =
		ifMatch === undefined
			? undefined
			: holds(sql`${resource.etag} IN (SELECT value FROM json_each(${JSON.stringify(ifMatch)}))`);
	const allowed = and(row, current, change.refuse && not(change.refuse.when)) as SQL;
	const update = "set" in change ? change : undefined;
	const first = change.first?.(allowed);
	/** The event it records: the resource as changed, or a deletion's id. */
	const recorded = () => {
		if (change.event === undefined) return undefined;
		if ("delete" in change) {
			const data = sql`json_object('id', ${id})`;
			const subject = resource.pathOf(id);
			const deleted = { type: change.event, subject, createdAt: at, data };
			return insertWhere(db, events, deleted, changed);
		}
		const event = typeof change.event === "string" ? { type: change.event } : change.event;
		return recordEvent(db, at, { ...event, resource, key: id }, changed);
	};
	const { state, main, after } = await runBatch(db, {
		state: probe(db, {
			found: holds(),
			current: current ?? sql`1`,
			unchanged: update?.unchangedWhen ? holds(and(current, update.unchangedWhen)) : sql`0`,
		}),
		first: first?.change,
		firstEvent: first && recordEvent(db, at, first.event, changed),
		main: update
			? db
					.update(table)
					.set({
						...(replace && cleared(resource)),
						...update.set,
						version: sql`${resource.version} + 1`,
					})
					.where(allowed)
			: db.delete(table).where(allowed),
		event: recorded(),
		after: update ? resource.tagged(db, id) : undefined,
	});
	const [changedRow] = after ?? [];
	const answered = changedRow && ({ ...changedRow.answer, etag: changedRow.etag } as Answered<R>);
	if (changes(main) > 0) return answered;
	const [{ found, current: stillCurrent, unchanged }] = state;
	if (!found) throw resource.notFound(id);
	if (!stillCurrent) throw new ApiError("precondition_failed");
	if (unchanged) return answered;
	throw change.refuse?.error ?? new ApiError("precondition_failed");
}

type Refusal<K extends string> =
	| ApiError
	| {
			/** Conditions probed in the same batch, which `error` reads to say why nothing was created. */
			probe: Record<K, SQL>;
			error: (why: Record<K, boolean>) => ApiError;
	  };

type Create<R extends Resource, K extends string, A, T extends SQLiteTable> = {
	/** The new row's fields, by name; the table gives the rest (its defaults). */
	values: RowValues<R["table"]>;
	/** What must hold for it to be created (its category exists). */
	when?: SQL;
	/** Made first (taking an order's stock): the resource is created only when it changed a row. */
	before?: (allowed: SQL) => Step;
	/** A row inserted with the new one (a pet's inventory item): its table, and its values by field name. */
	alongside?: { into: T; values: RowValues<T> };
	/** The events it records: of the new resource by their type, or of another. */
	events: (EventType | EventOf)[];
	/** Why nothing was created: a unique index, or a condition that did not hold. */
	refused: Refusal<K>;
	/**
	 * What it answers, and what its idempotency record keeps for a replay, as JSON built in SQL over the new row:
	 * the resource as the API answers it, unless this says otherwise.
	 */
	answer?: SQL<A>;
};

/**
 * Creates a resource with its events and, under an `Idempotency-Key`, its idempotency record, in one atomic batch.
 * Answers the new resource with its ETag; or, for a key an earlier request with the same body used, that
 * request's answer (its `onReplay` hears of it), and 422 for another body; or throws the refusal.
 */
export const create = async <
	R extends Resource,
	K extends string = never,
	A = Omit<Answered<R>, "etag">,
	T extends SQLiteTable = SQLiteTable,
>(
	{ db, now, key }: WriteContext,
	resource: R,
	create: Create<R, K, A, T>,
): Promise<A & { etag: string }> => {
	const at = new Date(now).toISOString();
	const answer = create.answer ?? resource.json;
	const record = key && eq(idempotencyKeys.key, key.key);
	const allowed = record ? not(exists(idempotencyKeys, record)) : sql`1`;
	const inserted = create.before ? changed : allowed;
	const {
		state,
		stored,
		inserted: insertedRows,
		created,
	} = await runBatch(db, {
		// The Cron Trigger prunes expired records in bulk; this forgets only the one this key may hit.
		forgetExpired:
			record &&
			db
				.delete(idempotencyKeys)
				.where(and(record, lt(idempotencyKeys.createdAt, now - idempotencyWindowMs))),
		stored: record && db.select().from(idempotencyKeys).where(record),
		state: create.refused instanceof ApiError ? undefined : probe(db, create.refused.probe),
		before: create.before?.(allowed),
		inserted: insertWhere(
			db,
			resource.table,
			create.values,
			create.when ? (and(inserted, create.when) as SQL) : inserted,
		),
		alongside:
			create.alongside && insertWhere(db, create.alongside.into, create.alongside.values, changed),
		...Object.fromEntries(
			create.events.map((event, index) => [
				`event${index}`,
				recordEvent(
					db,
					at,
					typeof event === "string" ? { type: event, resource, key: resource.newest } : event,
					changed,
				),
			]),
		),
		remember:
			key &&
			insertOver(
				db,
				idempotencyKeys,
				{ resource, key: resource.newest },
				{
					key: key.key,
					requestHash: key.requestHash,
					body: answer,
					etag: resource.etag,
					createdAt: now,
				},
				changed,
			),
		created: resource
			.select(db, {
				answer: sql`${answer}`.mapWith((text: string): A => JSON.parse(text)),
				etag: resource.etag,
			})
			.where(eq(resource.key, resource.newest)),
	});
	const [row] = created;
	if (changes(insertedRows) > 0 && row) {
		return { ...row.answer, etag: row.etag };
	}
	const [replayed] = stored ?? [];
	if (replayed && key) {
		if (replayed.requestHash !== key.requestHash) {
			throw new ApiError("idempotency_key_reused");
		}
		key.onReplay();
		return { ...JSON.parse(replayed.body), etag: replayed.etag };
	}
	if (create.refused instanceof ApiError) throw create.refused;
	const [why] = (state ?? []) as unknown as Record<K, boolean>[];
	throw create.refused.error(why);
};
