import { and, eq, not, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type {
	SQLiteTable,
	SQLiteUpdateSetSource,
} from "drizzle-orm/sqlite-core";
import { ApiError } from "../models/error";
import type { EventType } from "../models/event-types";
import type { Db } from "./client";
import {
	type IdempotencyKey,
	keySteps,
	keyValues,
	type StoredResponse,
} from "./idempotency";
import {
	bind,
	type Placeholders,
	placeholders,
	render,
	renderer,
	type Values,
} from "./prepared";
import type { Resource } from "./resource";
import { events } from "./schema";

// The one way the API changes data. D1 has no interactive transactions, so a write is one batch (one round trip,
// atomic) with every precondition in its SQL: a change runs only while its conditions hold, its events (the
// outbox, API.md §9) and its idempotency record only when it changed a row, and a probe in the same batch says
// why nothing changed.

/** What a write needs of its request: the database, its time, its `If-Match` ETags and its `Idempotency-Key`. */
export type WriteContext = {
	db: Db;
	now: number;
	ifMatch?: string[];
	key?: IdempotencyKey;
};

type Statement = BatchItem<"sqlite">;

/** `EXISTS (SELECT 1 FROM table WHERE condition)`: a precondition, checked by the statement it guards. */
export const exists = (table: SQLiteTable, condition: SQL | undefined) =>
	sql<boolean>`EXISTS (SELECT 1 FROM ${table} WHERE ${condition ?? sql`1`})`;

/** True when the statement right before it in the batch changed a row (SQLite's `changes()`). */
const changed = sql`changes() = 1`;

/**
 * An event a write records: its type, and the resource it carries, as the API answers it after the change (or
 * `data` built from its row).
 */
type EventOf = {
	type: EventType;
	resource: Resource;
	key: SQL | Placeholder | number;
	data?: SQL;
};

/** When a change happened, as ISO 8601 text: the request's time, or a placeholder for it (src/db/prepared.ts). */
type Moment = string | Placeholder;

/** An outbox row's columns, in the table's order (an INSERT … SELECT names them by position). */
const eventRow = (type: EventType, subject: SQL, data: SQL, at: Moment) => ({
	id: sql`NULL`.as("id"),
	type: sql`${type}`.as("type"),
	subject: sql`${subject}`.as("subject"),
	createdAt: sql`${at}`.as("created_at"),
	data: sql`${data}`.as("data"),
	fannedOutAt: sql`NULL`.as("fanned_out_at"),
});

/** Records the event when `condition` holds. */
const recordEvent = (
	db: Db,
	at: Moment,
	{ type, resource, key, data = resource.json }: EventOf,
	condition: SQL,
) =>
	db
		.insert(events)
		.select(
			resource
				.select(db, eventRow(type, resource.subject, data, at))
				.where(and(eq(resource.key, key), condition)),
		);

/** Records the deletion of resource `id`, whose event carries its id, when `condition` holds. */
const recordDeletion = (
	db: Db,
	at: Moment,
	type: EventType,
	{ resource, id }: { resource: Resource; id: number },
	condition: SQL,
) =>
	db.insert(events).select(
		db
			.select(
				eventRow(
					type,
					sql`${resource.pathOf(id)}`,
					sql`json_object('id', ${id})`,
					at,
				),
			)
			.from(sql`(SELECT 1)`)
			.where(condition),
	);

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

/** Runs the statements as one batch, in order, and answers each result by its name. */
const runBatch = async <S extends Record<string, Statement | undefined>>(
	db: Db,
	steps: S,
) => {
	const named = Object.entries(steps).filter(
		(step): step is [string, Statement] => step[1] !== undefined,
	);
	const [first, ...rest] = named.map(([, statement]) => statement);
	const results = await db.batch([first, ...rest]);
	return Object.fromEntries(
		named.map(([name], index) => [name, results[index]]),
	) as {
		[K in keyof S]: S[K] extends Statement ? Awaited<S[K]> : undefined;
	};
};

/** Rows a D1 run changed. */
const changes = (result: unknown) =>
	(result as { meta: { changes: number } } | undefined)?.meta.changes ?? 0;

/** The resource as the API answers it, with its ETag. */
type Answered<R extends Resource> = Awaited<ReturnType<R["find"]>>;

type Conditions = {
	/** A condition of its row under which the change is refused, and the error that says so. */
	refuse?: { when: SQL; error: ApiError };
	/** Changes made first, under the same conditions, each recording its event when it changed a row. */
	first?: (allowed: SQL) => { change: Statement; event: EventOf }[];
};

type Update<R extends Resource> = Conditions & {
	/** The columns to set; the version (and so the ETag) moves with them. */
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
	{ db, now, ifMatch }: WriteContext,
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
			: holds(
					sql`${resource.etag} IN (SELECT value FROM json_each(${JSON.stringify(ifMatch)}))`,
				);
	const allowed = and(
		row,
		current,
		change.refuse && not(change.refuse.when),
	) as SQL;
	const unchangedWhen = "set" in change ? change.unchangedWhen : undefined;
	const first = Object.fromEntries(
		(change.first?.(allowed) ?? []).flatMap(({ change, event }, index) => [
			[`first${index}`, change],
			[`firstEvent${index}`, recordEvent(db, at, event, changed)],
		]),
	);
	const { state, main, after } = await runBatch(db, {
		state: probe(db, {
			found: holds(),
			current: current ?? sql`1`,
			unchanged: unchangedWhen ? holds(and(current, unchangedWhen)) : sql`0`,
		}),
		...first,
		main:
			"set" in change
				? db
						.update(table)
						.set({ ...change.set, version: sql`${resource.version} + 1` })
						.where(allowed)
				: db.delete(table).where(allowed),
		event:
			change.event === undefined
				? undefined
				: "set" in change
					? recordEvent(
							db,
							at,
							typeof change.event === "string"
								? { type: change.event, resource, key: id }
								: { ...change.event, resource, key: id },
							changed,
						)
					: recordDeletion(db, at, change.event, { resource, id }, changed),
		after: "set" in change ? resource.tagged(db, id) : undefined,
	});
	const [answer] = (after ?? []) as Record<string, unknown>[];
	const answered = answer && (resource.answer(answer) as Answered<R>);
	if (changes(main) > 0) return answered;
	const [{ found, current: stillCurrent, unchanged }] = state;
	if (!found) throw resource.notFound(id);
	if (!stillCurrent) throw new ApiError("precondition_failed");
	if (unchanged) return answered;
	throw change.refuse?.error ?? new ApiError("precondition_failed");
}

/** Conditions probed before a create, and the error they name when it did not happen. */
type Probed<K extends string, V> = {
	probe: Record<K, SQL>;
	error: (why: Record<K, boolean>, values: V) => ApiError;
};

type Create<K extends string, V> = {
	/** Made first (taking an order's stock): the resource is created only when it changed a row. */
	before?: (allowed: SQL) => Statement;
	/** Inserts the resource, only while `allowed` holds. */
	insert: (allowed: SQL) => Statement;
	/** Inserted with the new row, which `created` tells (a pet's inventory item). */
	after?: (created: SQL) => Statement;
	/** The events it records: of the new resource by their type, or of another. */
	events: (EventType | EventOf)[];
	/** Why nothing was created. */
	refused: ((values: V) => ApiError) | Probed<K, V>;
	/** What an idempotent replay answers: the resource as the API answers it, unless this says otherwise. */
	replay?: SQL;
};

/** A create's outcome: the resource it made, or the stored response of an earlier request with its key. */
export type Created<T> = { created: T } | { stored: StoredResponse };

/** The names a create's own steps bind: a create's values may not take them. */
type Reserved = "recordedAt" | keyof ReturnType<typeof keyValues>;

/**
 * A create of `resource`, declared once: `build` writes its statements with placeholders for the request's values
 * (`values.name`), rendered once per isolate with and once without an `Idempotency-Key` (src/db/prepared.ts). Each
 * call creates the resource with its events and, under a key, its idempotency record, in one atomic batch; answers
 * the new resource or the response stored for the key, and throws the refusal when nothing was created.
 */
export const defineCreate = <
	R extends Resource,
	V extends Values & { [K in Reserved]?: never },
	K extends string,
>(
	resource: R,
	build: (db: Db, values: Placeholders<V>) => Create<K, V>,
) => {
	const shapes = new Map<boolean, ReturnType<typeof renderShape>>();
	const renderShape = (keyed: boolean) => {
		const db = renderer;
		const create = build(db, placeholders<V>());
		const key = keyed ? keySteps(db) : undefined;
		const allowed = key?.unused ?? sql`1`;
		const at = sql.placeholder("recordedAt");
		const of = (event: EventType | EventOf): EventOf =>
			typeof event === "string"
				? { type: event, resource, key: resource.newest }
				: event;
		const links = [
			create.before?.(allowed),
			create.insert(create.before ? changed : allowed),
			create.after?.(changed),
			...create.events.map((event) => recordEvent(db, at, of(event), changed)),
			key?.remember(resource, create.replay ?? resource.json, changed),
		];
		const [before, inserted, ...rest] = links;
		const probed = "probe" in create.refused ? create.refused : undefined;
		const steps = Object.entries({
			forgetExpired: key?.forgetExpired,
			stored: key?.stored,
			state: probed && probe(db, probed.probe),
			before,
			inserted,
			...Object.fromEntries(rest.map((link, index) => [`link${index}`, link])),
			created: resource.tagged(db, resource.newest),
		}).filter(([, statement]) => statement !== undefined);
		return {
			refused: create.refused,
			statements: steps.map(([name, statement]) => ({
				name,
				...render(statement),
			})),
		};
	};
	return async (
		{ db, now, key }: WriteContext,
		values: V,
	): Promise<Created<Answered<R>>> => {
		const keyed = key !== undefined;
		let shape = shapes.get(keyed);
		if (shape === undefined) {
			shape = renderShape(keyed);
			shapes.set(keyed, shape);
		}
		const bound = {
			...values,
			recordedAt: new Date(now).toISOString(),
			...(key && keyValues(key, now)),
		};
		const { statements, refused } = shape;
		const results = await db.$client.batch(
			statements.map((statement) => bind(db, statement, bound)),
		);
		const step: Record<string, unknown> = Object.fromEntries(
			statements.map(({ name, mapResult }, index) => [
				name,
				mapResult(results[index], true),
			]),
		);
		const [row] = step.created as Record<string, unknown>[];
		if (changes(step.inserted) > 0 && row) {
			return { created: resource.answer(row) as Answered<R> };
		}
		const [record] = (step.stored ?? []) as StoredResponse[];
		if (record) return { stored: record };
		if (typeof refused === "function") throw refused(values);
		const [why] = step.state as Record<K, boolean>[];
		throw refused.error(why, values);
	};
};
