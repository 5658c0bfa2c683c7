import {
	and,
	eq,
	getTableColumns,
	getTableName,
	is,
	lt,
	not,
	Param,
	Placeholder,
	SQL,
	type SQLWrapper,
	sql,
} from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { ApiError } from "../models/error";
import type { EventType } from "../models/event-types";
import type { Db } from "./client";
import { type IdempotencyKey, idempotencyWindowMs } from "./idempotency";
import type { Resource } from "./resource";
import { events, idempotencyKeys } from "./schema";

// The one way the API changes data. D1 has no interactive transactions, so a write is one batch (one round trip,
// atomic) with every precondition in its SQL: a change runs only while its conditions hold, its events (the
// outbox, API.md §9) and its idempotency record only when it changed a row, and a probe in the same batch says
// why nothing changed. A write is declared once, at the top of its module, over the row it writes, each field the
// value a request binds by name; its statements are built from the tables on the first request of each shape (the
// fields it carries; a `PUT`, `If-Match`, an `Idempotency-Key`) in an isolate, and a request only binds its values.

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

/** A statement of a batch, as a query builder renders it. */
type Step = { toSQL: () => { sql: string; params: unknown[] } };
/** A row of `table` as a statement names it: each field, the value a request binds to it. */
type Row<T extends SQLiteTable> = {
	[K in keyof T["$inferInsert"] as T["_"]["columns"][K]["_"]["isPrimaryKey"] extends true
		? never
		: K]-?: SQL;
};
/** Fields of a row of `table` that a declaration gives itself: SQL, or a value of the declaration. */
type Given<T extends SQLiteTable> = Partial<Record<keyof T["$inferInsert"], unknown>>;

/** The write's own values, bound beside its row's. */
const own = {
	id: sql.placeholder("$id"),
	at: sql.placeholder("$at"),
	now: sql.placeholder("$now"),
	ifMatch: sql.placeholder("$ifMatch"),
	key: sql.placeholder("$key"),
	requestHash: sql.placeholder("$requestHash"),
};

/** What a column holds when a write does not say: its default (SQL, or a value), or NULL. */
const defaultOf = (column: SQLiteColumn): unknown => column.default ?? column.defaultFn?.() ?? null;

/** The value a request binds by `name`, as `column` stores it (its default when the request gives none). */
const bind = (name: string, column: SQLiteColumn) =>
	sql`${sql.param(sql.placeholder(name), column)}`;

/** The row of `table` a request binds by field name. */
const placeholders = <T extends SQLiteTable>(table: T) =>
	Object.fromEntries(
		Object.entries(getTableColumns(table)).flatMap(([field, column]) =>
			column.primary ? [] : [[field, bind(field, column)]],
		),
	) as Row<T>;

/**
 * A row of `table` as a SELECT's fields, in the table's column order (as `INSERT … SELECT` needs): `given` by
 * field name; for each field of the request's row that it `carries`, the value it binds; for each field whose
 * column computes its default, the default of the request; for the rest, the column's default.
 */
const selection = <T extends SQLiteTable>(table: T, given: Given<T>, carries?: Set<string>) =>
	Object.fromEntries(
		Object.entries(getTableColumns(table)).map(([field, column]) => {
			const value = (given as Record<string, unknown>)[field];
			const named = carries ? field : `${getTableName(table)}.${field}`;
			const chosen =
				value !== undefined
					? value
					: carries?.has(field) || column.defaultFn
						? bind(named, column)
						: (column.default ?? null);
			return [field, sql`${is(chosen, SQL) ? chosen : sql.param(chosen, column)}`.as(column.name)];
		}),
	) as { [K in keyof T["$inferInsert"]]-?: SQL.Aliased };

/** `EXISTS (SELECT 1 FROM table WHERE condition)`: a precondition, checked by the statement it guards. */
export const exists = (table: SQLiteTable, condition: SQL | undefined) =>
	sql<boolean>`EXISTS (SELECT 1 FROM ${table} WHERE ${condition ?? sql`1`})`;

/** True when the statement right before it in the batch changed a row (SQLite's `changes()`). */
const changed = sql`changes() = 1`;

/** Inserts `row` into `table` only where `where` holds, and not over a row a unique index already holds. */
const insertWhere = (db: Db, table: SQLiteTable, row: Record<string, SQL.Aliased>, where: SQL) =>
	db
		.insert(table)
		.select(
			// Always a WHERE: SQLite would read ON CONFLICT right after FROM as a join's ON.
			db.select(row).from(sql`(SELECT 1)`).where(where),
		)
		.onConflictDoNothing();

/**
 * An event a write records: its type, and the resource it carries, as the API answers it after the change (or
 * `data` built from its row).
 */
type EventOf = { type: EventType; resource: Resource; key: SQL; data?: SQL };

/** Inserts a row of `table` built over the resource `key`, `given` by field name, when `condition` holds. */
const insertOver = <T extends SQLiteTable>(
	db: Db,
	table: T,
	{ resource, key }: { resource: Resource; key: SQL },
	given: Given<T>,
	condition: SQL,
) =>
	db
		.insert(table)
		.select(
			resource.select(db, selection(table, given)).where(and(eq(resource.key, key), condition)),
		);

/** Records the event when `condition` holds. */
const recordEvent = (db: Db, event: EventOf, condition: SQL) => {
	const { type, resource, data = resource.json } = event;
	const row = { type, subject: resource.subject, createdAt: own.at, data };
	return insertOver(db, events, event, row, condition);
};

/** `fields` as a SELECT's, each named by its key (a D1 batch answers rows as objects by column name). */
const aliased = (fields: Record<string, SQLWrapper>) =>
	Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, sql`${field}`.as(name)]));

/** A one-row SELECT of named conditions. */
const probe = (db: Db, conditions: Record<string, SQL>) =>
	db.select(aliased(conditions)).from(sql`(SELECT 1)`);

/** What D1 answers for a statement of a batch. */
type Ran = { results: Record<string, unknown>[]; meta: { changes: number } };
/** Values a request binds, by name: its row's fields, its own (`$at`, `$id`, …) and its declaration's (`@…`). */
type Bound = Record<string, unknown>;

/** How a request binds a statement's parameter: a placeholder by its name, anything else as it is. */
const binding = (param: unknown): ((values: Bound) => unknown) => {
	if (is(param, Placeholder)) return (values) => values[param.name];
	if (!is(param, Param) || !is(param.value, Placeholder)) return () => param;
	const { value, encoder } = param;
	return (values) => {
		const given =
			values[value.name] === undefined ? defaultOf(encoder as SQLiteColumn) : values[value.name];
		return given === null ? null : encoder.mapToDriverValue(given);
	};
};

/** A batch rendered once: each statement's name, its SQL and how a request binds its parameters. */
type Built<E> = {
	statements: { name: string; sql: string; binds: ((values: Bound) => unknown)[] }[];
	refusal: E;
};

/**
 * The batches of one declaration, each rendered by `make` on the first request of its shape in this isolate: the
 * fields it carries (given, not undefined), and the rest of its shape.
 */
const batches = <E>() => {
	const shapes = new Map<string, Built<E>>();
	return (
		values: object,
		shape: unknown[],
		make: (carries: Set<string>) => { steps: Record<string, Step | undefined>; refusal: E },
	) => {
		const given = Object.keys(values).filter((field) => (values as Bound)[field] !== undefined);
		const key = JSON.stringify([given.sort(), ...shape]);
		let built = shapes.get(key);
		if (!built) {
			const { steps, refusal } = make(new Set(given));
			const statements = Object.entries(steps).flatMap(([name, step]) => {
				if (!step) return [];
				const { sql, params } = step.toSQL();
				return [{ name, sql, binds: params.map(binding) }];
			});
			built = { statements, refusal };
			shapes.set(key, built);
		}
		return built;
	};
};

/** Runs `built` as one batch through the request's D1 session, `values` bound by name; each result by its name. */
const run = async <E>({ db, now }: WriteContext, built: Built<E>, values: Bound) => {
	const d1 = db.$client;
	const all = { $at: new Date(now).toISOString(), $now: now, ...values };
	const results = (await d1.batch(
		built.statements.map(({ sql, binds }) => d1.prepare(sql).bind(...binds.map((b) => b(all)))),
	)) as unknown as Ran[];
	return Object.fromEntries(
		built.statements.map(({ name }, index) => [name, results[index]]),
	) as Record<string, Ran | undefined>;
};

/** The resource as the API answers it, with its ETag, from the row of its `tagged` query. */
const answerOf = <A>(ran: Ran | undefined) =>
	ran?.results.map(({ answer, etag }) => ({
		...JSON.parse(String(answer)),
		etag: String(etag),
	}))[0] as (A & { etag: string }) | undefined;

/** The resource as the API answers it, with its ETag; the fields of its row, by name. */
type Answered<R extends Resource> = Awaited<ReturnType<R["find"]>>;
type Fields<R extends Resource> = R["table"]["$inferInsert"];
/** Further values a request binds by name (`@name`), as a statement names them. */
const named = new Proxy({} as Record<string, SQL>, {
	get: (_, name) => sql`${sql.placeholder(`@${String(name)}`)}`,
});

/** What a change of `R` is declared from: its row, a builder, and what the request's shape is. */
type ChangeShape<R extends Resource, F, V> = {
	row: Row<R["table"]>;
	values: { [K in keyof V]-?: SQL };
	/** The resource's key, and the request's time in Unix milliseconds, as the request binds them. */
	id: SQL;
	now: SQL;
	db: Db;
	/** Whether the change carries the field. */
	carries: (field: keyof Fields<R>) => boolean;
	/** The caller's facts of the request that shape the statements. */
	flags: F;
};
type ChangeDeclaration<R extends Resource> = {
	/** Fields it sets to SQL over the row, by name, beside those the request carries. */
	set?: Partial<Record<keyof Fields<R>, SQL>>;
	/** A condition of its row under which the change is refused, and the error that says so for a request. */
	refuse?: { when: SQL; error: (request: Partial<Fields<R>> & { id: number }) => ApiError };
	/** A change made first, under the same conditions, recording its event when it changed a row. */
	first?: (allowed: SQL) => { change: Step; event: EventOf };
} & (
	| {
			/** The event it records, carrying the resource (or `data` built from its row). */
			event?: EventType | { type: EventType; data: SQL };
			/** A row for which this holds is answered as it is, with no write and no event (a no-op). */
			unchangedWhen?: SQL;
	  }
	| { delete: true; event?: EventType }
);

/** A change's request: the fields it sets (the ETag moves with them), and its flags and values, if declared. */
type Change<R extends Resource, F, V> = { set?: Partial<Fields<R>> } & (undefined extends F
	? { flags?: F }
	: { flags: F }) &
	(keyof V extends never ? { values?: V } : { values: V });
/** A change's request, optional when its declaration has no flags or values. */
type Request<C> = Partial<C> extends C ? [C?] : [C];

/**
 * A change of `R` declared once: what it refuses, makes first, records and leaves as it is, from its shape. It
 * changes (or deletes) the resource `id` only if it exists, still has one of the `If-Match` ETags and is not
 * refused, with its events, in one atomic batch, and answers the changed resource (a deletion: undefined), or
 * throws why nothing changed: 404, 412 `precondition_failed`, or the refusal's error.
 */
export const declareChange = <
	R extends Resource,
	F = undefined,
	V = Record<never, unknown>,
	D extends ChangeDeclaration<R> = ChangeDeclaration<R>,
>(
	resource: R,
	declare: (shape: ChangeShape<R, F, V>) => D,
) => {
	const builtFor = batches<ChangeDeclaration<R>["refuse"]>();
	return async (
		context: WriteContext,
		id: number,
		...[request]: Request<Change<R, F, V>>
	): Promise<[D] extends [{ delete: true }] ? undefined : Answered<R>> => {
		const { set = {}, flags, values } = (request ?? {}) as { set?: object; flags?: F; values?: V };
		const { db, ifMatch, replace } = context;
		const { table } = resource;
		const built = builtFor(set, [!!replace, ifMatch !== undefined, flags ?? null], (carried) => {
			const key = sql`${sql.param(own.id, resource.key)}`;
			const row = placeholders(table) as Row<R["table"]> & Record<string, SQL>;
			const carries = (field: PropertyKey) => carried.has(field as string);
			const shape = { row, values: named, id: key, now: sql`${own.now}`, db, carries, flags };
			const change = declare(shape as ChangeShape<R, F, V>);
			const where = eq(resource.key, key);
			/** Whether the resource exists with `condition` (read through its join, which a DELETE cannot name). */
			const holds = (condition?: SQL) =>
				sql`EXISTS ${resource.select(db, { one: sql`1` }).where(and(where, condition))}`;
			// The tags travel as one JSON parameter: a header naming many cannot exceed D1's bound-parameter limit.
			const current =
				ifMatch && holds(sql`${resource.etag} IN (SELECT value FROM json_each(${own.ifMatch}))`);
			const allowed = and(where, current, change.refuse && not(change.refuse.when)) as SQL;
			const first = change.first?.(allowed);
			/** What it sets: the fields it carries, and on a `PUT` the optional ones it shows, to their default. */
			const setting = Object.entries(getTableColumns(table)).flatMap(([field, column]) => {
				if (carried.has(field)) return [[field, row[field]]];
				const clears = replace && field in resource.projection && !column.primary;
				return clears && !(column.notNull && !column.hasDefault)
					? [[field, is(column.default, SQL) ? column.default : row[field]]]
					: [];
			});
			/** The event it records: the resource as changed, or a deletion's id. */
			const recorded = () => {
				if (change.event === undefined) return undefined;
				if ("delete" in change) {
					// D1 binds a number as a REAL, which text and JSON would show as `1.0`.
					const whole = sql`CAST(${key} AS INTEGER)`;
					const data = sql`json_object('id', ${whole})`;
					const subject = sql`${`${resource.path}/`} || ${whole}`;
					const deleted = { type: change.event, subject, createdAt: own.at, data };
					return insertWhere(db, events, selection(events, deleted), changed);
				}
				const event = typeof change.event === "string" ? { type: change.event } : change.event;
				return recordEvent(db, { ...event, resource, key }, changed);
			};
			const unchangedWhen = "delete" in change ? undefined : change.unchangedWhen;
			const steps = {
				state: probe(db, {
					found: holds(),
					current: current ?? sql`1`,
					unchanged: unchangedWhen ? holds(and(current, unchangedWhen)) : sql`0`,
				}),
				first: first?.change,
				firstEvent: first && recordEvent(db, first.event, changed),
				main:
					"delete" in change
						? db.delete(table).where(allowed)
						: db
								.update(table)
								.set({
									...Object.fromEntries(setting),
									...change.set,
									version: sql`${resource.version} + 1`,
								})
								.where(allowed),
				event: recorded(),
				after: "delete" in change ? undefined : resource.tagged(db, key),
			};
			return { steps, refusal: change.refuse };
		});
		const { state, main, after } = await run(context, built, {
			...set,
			...Object.fromEntries(
				Object.entries(values ?? {}).map(([name, value]) => [`@${name}`, value]),
			),
			$id: id,
			$ifMatch: ifMatch && JSON.stringify(ifMatch),
		});
		const answer = answerOf(after) as [D] extends [{ delete: true }] ? undefined : Answered<R>;
		if ((main?.meta.changes ?? 0) > 0) return answer;
		const [{ found, current, unchanged }] = (state?.results ?? [{}]) as Record<string, unknown>[];
		if (!found) throw resource.notFound(id);
		if (!current) throw new ApiError("precondition_failed");
		if (unchanged) return answer;
		throw built.refusal?.error({ ...set, id }) ?? new ApiError("precondition_failed");
	};
};

/** What a create of `R` is declared from: the row it inserts, and a builder. */
type CreateShape<R extends Resource> = { row: Row<R["table"]>; db: Db };
type CreateDeclaration<R extends Resource, K extends string, A, T extends SQLiteTable> = {
	/** What must hold for it to be created (its category exists). */
	when?: SQL;
	/** Made first (taking an order's stock): the resource is created only when it changed a row. */
	before?: (allowed: SQL) => Step;
	/** A row inserted with the new one (a pet's inventory item): its table, and its fields by name. */
	alongside?: { into: T; values: Given<T> };
	/** The events it records: of the new resource by their type, or of another. */
	events: (EventType | EventOf)[];
	/** Conditions probed in the same batch, which `refused` reads to say why nothing was created. */
	probe?: Record<K, SQL>;
	/** Why nothing was created for a request: a unique index, or a condition that did not hold. */
	refused: (request: Fields<R>, why: Record<K, boolean>) => ApiError;
	/** What it answers and its idempotency record keeps, as JSON in SQL over the new row (else the resource). */
	answer?: SQL<A>;
};

/**
 * A create of `R` declared once: what it needs, makes first, inserts alongside, records and answers. It creates
 * the resource, `values` by field name, with its events and, under an `Idempotency-Key`, its idempotency record, in
 * one atomic batch, and answers the new resource with its ETag; or, for a key an earlier request with the same
 * body used, that request's answer (its `onReplay` hears of it), and 422 for another body; or throws the refusal.
 */
export const declareCreate = <
	R extends Resource,
	K extends string = never,
	A = Omit<Answered<R>, "etag">,
	T extends SQLiteTable = SQLiteTable,
>(
	resource: R,
	declare: (shape: CreateShape<R>) => CreateDeclaration<R, K, A, T>,
) => {
	const builtFor = batches<CreateDeclaration<R, K, A, T>["refused"]>();
	return async (context: WriteContext, values: Fields<R>): Promise<A & { etag: string }> => {
		const { db, key } = context;
		const { table } = resource;
		const built = builtFor(values, [key !== undefined], (carried) => {
			const declared = declare({ row: placeholders(table) as Row<R["table"]>, db });
			const answer = declared.answer ?? resource.json;
			const record = key && eq(idempotencyKeys.key, own.key);
			const allowed = record ? not(exists(idempotencyKeys, record)) : sql`1`;
			const inserted = declared.before ? changed : allowed;
			const newest = { resource, key: resource.newest };
			const recorded = declared.events.map((event) =>
				typeof event === "string" ? { type: event, ...newest } : event,
			);
			const { body, etag, requestHash } = idempotencyKeys;
			const kept = {
				key: own.key,
				requestHash: own.requestHash,
				body: answer,
				etag: resource.etag,
			};
			const steps = {
				// The Cron Trigger prunes expired records in bulk; this forgets only the one this key may hit.
				forgetExpired:
					record &&
					db
						.delete(idempotencyKeys)
						.where(
							and(record, lt(idempotencyKeys.createdAt, sql`${own.now} - ${idempotencyWindowMs}`)),
						),
				stored:
					record &&
					db
						.select(aliased({ answer: body, etag, requestHash }))
						.from(idempotencyKeys)
						.where(record),
				state: declared.probe && probe(db, declared.probe),
				before: declared.before?.(allowed),
				inserted: insertWhere(
					db,
					table,
					selection(table, {}, carried),
					declared.when ? (and(inserted, declared.when) as SQL) : inserted,
				),
				alongside:
					declared.alongside &&
					insertWhere(
						db,
						declared.alongside.into,
						selection(declared.alongside.into, declared.alongside.values),
						changed,
					),
				...Object.fromEntries(
					recorded.map((event, index) => [`event${index}`, recordEvent(db, event, changed)]),
				),
				remember:
					key && insertOver(db, idempotencyKeys, newest, { ...kept, createdAt: own.now }, changed),
				created: resource.tagged(db, resource.newest, answer),
			};
			return { steps, refusal: declared.refused };
		});
		const results = await run(context, built, {
			...values,
			$key: key?.key,
			$requestHash: key?.requestHash,
		});
		const created = answerOf<A>(results.created);
		if ((results.inserted?.meta.changes ?? 0) > 0 && created) return created;
		const replayed = answerOf<A>(results.stored);
		if (replayed && key) {
			const [{ requestHash }] = results.stored?.results ?? [{}];
			if (requestHash !== key.requestHash) throw new ApiError("idempotency_key_reused");
			key.onReplay();
			return replayed;
		}
		const [why] = (results.state?.results ?? [{}]) as Record<K, boolean>[];
		throw built.refusal(values, why);
	};
};
