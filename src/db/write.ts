import { and, eq, getTableColumns, getTableName, not, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { ApiError } from "../models/error";
import type { EventType } from "../models/event-types";
import { nameKey } from "../models/name-key";
import { type IdempotencyKey, idempotencyWindowMs } from "./idempotency";
import type { Resource } from "./resource";
import { events, idempotencyKeys } from "./schema";

// The one way the API changes data. D1 has no interactive transactions, so a write is one batch (one round trip,
// atomic) with every precondition in its SQL. Its steps run in the order they are written: the main one (the
// insert, update or removal of the resource) under the write's conditions, the others under conditions of their
// own or chained on the step before them (they run only when it changed a row, which the write checks). A probe in
// the same batch says why nothing changed; what a write answers, its events and its idempotency record are read
// from the rows in the batch.

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

type Db = import("./client").Db;
type Statement = BatchItem<"sqlite">;

/** A statement of a write, by name: the main one, one with conditions of its own, or one chained on the last. */
export type Step = { name: string; statement: Statement; chained?: true; main?: true };

/** A condition under which nothing is written, and the error that says so. */
export type Refusal = [when: SQL, error: () => ApiError];

/** True when the statement right before it in the batch changed a row (SQLite's `changes()`). */
export const changed = sql`changes() = 1`;

/** A step with conditions of its own. */
export const step = (name: string, statement: Statement): Step => ({ name, statement });

/** A step that runs only when the step before it changed a row: its statement's SQL says so with {@link changed}. */
export const chained = (name: string, statement: Statement): Step => ({
	name,
	statement,
	chained: true,
});

/** `EXISTS (SELECT 1 FROM table WHERE condition)`: a precondition, checked by the statement it guards. */
export const exists = (table: SQLiteTable, condition: SQL | undefined) =>
	sql<boolean>`EXISTS (SELECT 1 FROM ${sql.raw(`"${getTableName(table)}"`)} WHERE ${condition ?? sql`1`})`;

/** The fields a write of a resource's row gives by name: neither its key, its version nor its folded name. */
export type Fields<R extends Resource> = Omit<
	R["table"]["$inferInsert"],
	"version" | NonNullable<R["fold"]>["column"] | R["key"]["_"]["name"]
>;

/** Fields a change sets, each to a value or to SQL over the row. */
export type Changes<R extends Resource> = { [K in keyof Fields<R>]?: Fields<R>[K] | SQL };

/** The resource as the API answers it, with its ETag. */
type Answered<R extends Resource> = Awaited<ReturnType<R["find"]>>;

/** Values of a row of `table`, by field: each a value or SQL. */
type Row<T extends SQLiteTable> = Partial<Record<keyof T["$inferInsert"], unknown>>;

const isSql = (value: unknown): value is SQL =>
	typeof value === "object" && value !== null && "getSQL" in value;

// The statements a write adds around its steps are written as `sql` over the tables' own names: the same SQL a
// query builder would render, at a fraction of the rendering, which every write pays.

/**
 * A row of `table` as the values an `INSERT … SELECT` selects, in the table's column order: each field given (a
 * value, encoded as its column stores it, or SQL), else the column's default, else NULL.
 */
const rowOf = <T extends SQLiteTable>(table: T, given: Row<T>) =>
	sql.join(
		Object.entries(getTableColumns(table)).map(([field, column]) => {
			const value = (given as Record<string, unknown>)[field] ?? column.default ?? null;
			// A value is a parameter as it is: the cheapest chunk a statement renders.
			return (isSql(value) ? value : value === null ? null : column.mapToDriverValue(value)) as SQL;
		}),
		sql.raw(", "),
	);

/** Inserts `row` into `table` where `condition` holds, and not over a row a unique index already holds. */
const insertWhere = <T extends SQLiteTable>(db: Db, table: T, row: Row<T>, condition: SQL) =>
	db
		.insert(table)
		.select(sql`select ${rowOf(table, row)} where ${condition}`)
		.onConflictDoNothing();

/** The fields to write: those given, and with a name, its fold. */
const withFold = (resource: Resource, fields: object) => {
	const { name } = fields as { name?: string };
	return resource.fold && name !== undefined
		? { ...fields, [resource.fold.column]: nameKey(name) }
		: { ...fields };
};

/** The refusal that a taken folded name is, when the write gives a name and the resource's names are unique. */
const takenName = (resource: Resource, fields: object, other?: SQL): Refusal[] => {
	const { name } = fields as { name?: string };
	const unique = resource.fold?.unique;
	if (!unique || name === undefined) return [];
	const column = getTableColumns(resource.table)[resource.fold?.column ?? ""];
	const taken = `A ${resource.name.toLowerCase()} named "${name}" already exists.`;
	return [
		[
			exists(resource.table, and(eq(column, nameKey(name)), other)),
			() => new ApiError(unique, taken),
		],
	];
};

/** The event a write records, chained: of `resource` (whose key is `key`) as the API answers it after the change. */
const recordEvent = (ctx: WriteContext, type: EventType, resource: Resource, key: SQL | number) => {
	const row = rowOf(events, {
		type,
		subject: resource.subject,
		createdAt: new Date(ctx.now).toISOString(),
		data: resource.json,
	});
	return chained(
		type,
		ctx.db
			.insert(events)
			.select(
				sql`select ${row} from ${resource.from} where ${resource.key} = ${key} and ${changed}`,
			),
	);
};

/** An event of `type` about `subject` carrying `data` (JSON built in SQL), chained: what no row of a resource shows. */
export const eventOf = (ctx: WriteContext, type: EventType, subject: string, data: SQL) =>
	chained(
		type,
		insertWhere(
			ctx.db,
			events,
			{ type, subject, createdAt: new Date(ctx.now).toISOString(), data },
			changed,
		),
	);

/** The first refusal whose condition holds, by the 0 or 1 of each in `why`. */
const refusalOf = (refusals: Refusal[], why: number[]) =>
	refusals.find((_, index) => why[index])?.[1]();

/** What D1 answers for a statement of a batch that writes. */
type Ran = { meta: { changes: number } };

/**
 * Runs a write as one batch: the statements `before` it, its `steps`, and a closing read of the resource `at` a key
 * with its ETag, of the `why` conditions (0 or 1 each: when the main step changed nothing, why) and of the `stored`
 * `Idempotency-Key`'s record. Throws when a chained step after one that changed a row changed none (those after it
 * would silently not run). Answers whether the main step changed a row, and what the closing read found.
 */
const run = async (
	ctx: WriteContext,
	resource: Resource,
	write: {
		before?: Statement[];
		steps: Step[];
		at: SQL | number;
		why: SQL[];
		stored?: IdempotencyKey;
	},
) => {
	const { before = [], steps, at, stored } = write;
	const closing = ctx.db
		.select({
			answer:
				sql<string>`(select json_array(${resource.json}, ${resource.etag}) from ${resource.from} where ${resource.keyColumn} = ${at})`.as(
					"answer",
				),
			why: sql<string>`json_array(${sql.join(write.why, sql.raw(", "))})`.as("why"),
			stored: (stored
				? sql<string>`(select json_array("body", "etag", "request_hash") from "idempotency_keys" where "key" = ${stored.key})`
				: sql<null>`null`
			).as("stored"),
		})
		.from(sql`(select 1)`);
	const main = steps.findIndex((one) => one.main);
	const statements = [...before, ...steps.map((one) => one.statement), closing];
	const results = (await ctx.db.batch(statements as [Statement, ...Statement[]])) as unknown[];
	const ran = results.slice(before.length, before.length + steps.length) as Ran[];
	const wrote = ran[main].meta.changes > 0;
	// D1 counts the rows a statement's triggers change too, so a chained step that ran changed one or more.
	steps.forEach((one, index) => {
		const lost =
			one.chained && wrote && ran[index - 1]?.meta.changes > 0 && ran[index].meta.changes === 0;
		if (lost) {
			throw new Error(
				`The write's step "${one.name}" is chained on "${steps[index - 1].name}", which changed a row, and changed none: a step that may change nothing breaks the chain of those after it.`,
			);
		}
	});
	const [row] = results.at(-1) as { answer: string | null; why: string; stored: string | null }[];
	const answered = row.answer === null ? undefined : JSON.parse(row.answer);
	const record = row.stored === null ? undefined : JSON.parse(row.stored);
	return {
		wrote,
		answer: answered && { ...answered[0], etag: answered[1] },
		why: JSON.parse(row.why) as number[],
		stored: record && {
			answer: { ...JSON.parse(record[0]), etag: record[1] },
			requestHash: record[2],
		},
	};
};

/** What every write's steps are made of: its conditions and its events. */
type Made = {
	/**
	 * The write's conditions: no refusal holds; for a create, its `Idempotency-Key` is unused; for a change or a
	 * removal, the resource exists and still has an `If-Match` ETag.
	 */
	allowed: SQL;
	/** The event of the resource written (a removal's data: the id of what is gone), or of `resource`'s `key`, chained. */
	event: (type: EventType, resource?: Resource, key?: SQL | number) => Step;
};

/** What a create's steps are made of: its insert, and a row inserted beside it. */
type CreateSteps<R extends Resource> = Made & {
	/** The main step: the resource, `fields` by name (its folded name beside its name), where `allowed`. */
	insert: (fields: Fields<R>) => Step;
	/** A row of `table` inserted with the new resource, chained. */
	alongside: <T extends SQLiteTable>(table: T, row: Row<T>) => Step;
};

/**
 * Creates a resource in one atomic batch: `steps` in order, under the write's conditions; under an
 * `Idempotency-Key`, with its record, and for a key an earlier request with the same body used, that request's
 * answer (its `onReplay` hears of it), or 422 for another body. Answers the new resource with its ETag, or throws
 * the first refusal that holds (or, for a unique name, that it is taken).
 */
export const createOne = async <R extends Resource>(
	ctx: WriteContext,
	resource: R,
	write: { refuse?: Refusal[]; steps: (make: CreateSteps<R>) => Step[] },
): Promise<Answered<R>> => {
	const { db, key, now } = ctx;
	const allowed =
		and(
			...(write.refuse ?? []).map(([when]) => not(when)),
			key && sql`not exists (select 1 from "idempotency_keys" where "key" = ${key.key})`,
		) ?? sql`1`;
	let fields: object = {};
	const steps = write.steps({
		allowed,
		insert: (given) => {
			fields = withFold(resource, given);
			return {
				name: resource.name,
				statement: insertWhere(db, resource.table, fields as Record<string, unknown>, allowed),
				main: true,
			};
		},
		event: (type, of = resource, at = resource.newest) => recordEvent(ctx, type, of, at),
		alongside: (table, row) => chained(getTableName(table), insertWhere(db, table, row, changed)),
	});
	const refusals = [...(write.refuse ?? []), ...takenName(resource, fields)];
	// The Cron Trigger prunes expired records in bulk; this forgets only the one this key may hit.
	const forget =
		key &&
		db
			.delete(idempotencyKeys)
			.where(sql`"key" = ${key.key} and "created_at" < ${now - idempotencyWindowMs}`);
	const record = key && keyRecord(ctx, resource, key);
	const { wrote, answer, why, stored } = await run(ctx, resource, {
		before: forget ? [forget] : [],
		steps: record ? [...steps, record] : steps,
		at: resource.newest,
		why: refusals.map(([when]) => when),
		stored: key,
	});
	if (wrote) return answer as Answered<R>;
	if (key && stored) {
		if (stored.requestHash !== key.requestHash) throw new ApiError("idempotency_key_reused");
		key.onReplay();
		return stored.answer as Answered<R>;
	}
	throw (
		refusalOf(refusals, why) ??
		new Error(`Nothing was created, and no refusal of ${resource.name} says why.`)
	);
};

/** A create's idempotency record: its key, the hash of the request, and what it answered, chained. */
const keyRecord = (ctx: WriteContext, resource: Resource, key: IdempotencyKey) => {
	const row = rowOf(idempotencyKeys, {
		key: key.key,
		requestHash: key.requestHash,
		body: resource.json,
		etag: resource.etag,
		createdAt: ctx.now,
	});
	return chained(
		"record",
		ctx.db
			.insert(idempotencyKeys)
			.select(
				sql`select ${row} from ${resource.from} where ${resource.keyColumn} = ${resource.newest} and ${changed}`,
			),
	);
};

/**
 * The main step of a change: the fields of `set` (its folded name beside its name; on a `PUT`, the optional fields
 * it does not carry cleared), its version bumped, where `allowed`.
 */
type ChangeSteps<R extends Resource> = Made & { update: (set: Changes<R>) => Step };

/** The main step of a removal: the resource deleted, where `allowed`. */
type RemoveSteps = Made & { remove: () => Step };

/**
 * A write of the existing resource `id`: `make` builds its steps from its conditions (it exists, `within` holds
 * for it — a resource outside is not found —, it still has one of the `If-Match` ETags, and no refusal holds) and
 * answers the refusals its main step added. When nothing changed, throws why: 404, 412 `precondition_failed`, or
 * the first refusal that holds.
 */
const writeOne = async (
	ctx: WriteContext,
	resource: Resource,
	id: number,
	write: { within?: SQL; refuse?: Refusal[] },
	make: (conditions: { allowed: SQL; refused: (refusals: Refusal[]) => SQL[] }) => {
		steps: Step[];
		added?: Refusal[];
	},
) => {
	const { ifMatch } = ctx;
	const where = and(sql`${resource.keyColumn} = ${id}`, write.within) as SQL;
	/** Whether the resource exists with `condition`, read through its join, which a DELETE cannot name. */
	const holds = (condition?: SQL) =>
		sql<boolean>`exists (select 1 from ${resource.from} where ${and(where, condition)})`;
	/** Refusals as conditions the resource must not meet. */
	const refused = (refusals: Refusal[]) => refusals.map(([when]) => not(holds(when)));
	// The tags travel as one JSON parameter: a header naming many cannot exceed D1's bound-parameter limit.
	const current =
		ifMatch &&
		holds(sql`${resource.etag} IN (SELECT value FROM json_each(${JSON.stringify(ifMatch)}))`);
	const allowed = and(where, current, ...refused(write.refuse ?? [])) as SQL;
	const { steps, added = [] } = make({ allowed, refused });
	const refusals = [...(write.refuse ?? []), ...added];
	const conditions = [holds(), current ?? sql`1`, ...refusals.map(([when]) => holds(when))];
	const { wrote, answer, why } = await run(ctx, resource, { steps, at: id, why: conditions });
	if (wrote) return answer;
	const [present, matches, ...reasons] = why;
	if (!present) throw resource.notFound(id);
	if (!matches) throw new ApiError("precondition_failed");
	throw (
		refusalOf(refusals, reasons) ??
		new Error(`${resource.name} ${id} changed nothing, and no refusal says why.`)
	);
};

/**
 * Changes the resource `id` in one atomic batch, `steps` in order, under the conditions of {@link writeOne} (a name
 * its unique names already hold refused too); answers it changed, with its new ETag.
 */
export const changeOne = async <R extends Resource>(
	ctx: WriteContext,
	resource: R,
	id: number,
	write: { within?: SQL; refuse?: Refusal[]; steps: (make: ChangeSteps<R>) => Step[] },
): Promise<Answered<R>> => {
	const columns = Object.entries(getTableColumns(resource.table));
	const version = columns.find(([, column]) => column === resource.version)?.[0] ?? "version";
	const row = await writeOne(ctx, resource, id, write, ({ allowed, refused }) => {
		const added: Refusal[] = [];
		const steps = write.steps({
			allowed,
			update: (set) => {
				const fields = withFold(resource, set);
				const taken = takenName(resource, fields, not(eq(resource.key, id)));
				added.push(...taken);
				/** On a `PUT`, the optional fields it shows and the request does not carry: to their default, or null. */
				const cleared = columns.flatMap(([field, column]) =>
					ctx.replace &&
					field in resource.projection &&
					!(field in fields) &&
					!column.primary &&
					!(column.notNull && !column.hasDefault)
						? [[field, column.default ?? null]]
						: [],
				);
				const statement = ctx.db
					.update(resource.table)
					.set({
						...Object.fromEntries(cleared),
						...fields,
						[version]: sql`${resource.version} + 1`,
					})
					.where(and(allowed, ...refused(taken)));
				return { name: resource.name, statement, main: true };
			},
			event: (type, of = resource, at = id) => recordEvent(ctx, type, of, at),
		});
		return { steps, added };
	});
	return row as Answered<R>;
};

/**
 * Deletes the resource `id` in one atomic batch, `steps` in order, under the conditions of {@link writeOne}.
 */
export const removeOne = async <R extends Resource>(
	ctx: WriteContext,
	resource: R,
	id: number,
	write: { within?: SQL; refuse?: Refusal[]; steps: (make: RemoveSteps) => Step[] },
): Promise<void> => {
	// D1 binds a number as a REAL, which text and JSON would show as `1.0`.
	const whole = sql`CAST(${id} AS INTEGER)`;
	await writeOne(ctx, resource, id, write, ({ allowed }) => ({
		steps: write.steps({
			allowed,
			remove: () => ({
				name: resource.name,
				statement: ctx.db.delete(resource.table).where(allowed),
				main: true,
			}),
			event: (type, of, at) =>
				of && at !== undefined
					? recordEvent(ctx, type, of, at)
					: eventOf(ctx, type, resource.pathOf(id), sql`json_object('id', ${whole})`),
		}),
	}));
};
