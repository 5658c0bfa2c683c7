import { and, eq, exists, getTableColumns, getTableName, gt, type SQL, sql } from "drizzle-orm";
import type { SelectedFields, SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { ApiError } from "../models/error";
import type { ErrorCode } from "../models/error-codes";
import { nameKey } from "../models/name-key";
import type { Db } from "./client";

/** The columns a resource shows, by the names the API answers them with. */
type Projection = Record<string, SQLiteColumn>;

type Nullable<P extends Projection> = {
	[K in keyof P]: P[K]["_"]["notNull"] extends true ? never : K;
}[keyof P];

/** A resource as the API answers it: a nullable column that holds null is left out. */
type Answer<P extends Projection> = {
	[K in Exclude<keyof P, Nullable<P>>]: P[K]["_"]["data"];
} & { [K in Nullable<P>]?: P[K]["_"]["data"] };

/**
 * A column's value as JSON: a boolean column holds 0 or 1, which the API answers as `false` or `true` (and NULL as
 * null); a JSON column holds JSON text, answered as the value it encodes.
 */
const jsonValue = (column: SQLiteColumn) => {
	if (column.columnType === "SQLiteBoolean") {
		return sql`json(CASE WHEN ${column} IS NULL THEN NULL WHEN ${column} THEN 'true' ELSE 'false' END)`;
	}
	return column.columnType === "SQLiteTextJson" ? sql`json(${column})` : sql`${column}`;
};

/**
 * A field's name as an SQL string literal, which no builder writes: a name of the model, an identifier of our code,
 * never input. A literal, not a bound value: no statement binds more than what it was given.
 */
const literal = (name: string) => {
	if (!/^\w+$/.test(name)) throw new Error(`"${name}" is not a field name.`);
	return sql.raw(`'${name}'`);
};

/** `json_object('name', value, …)` of the columns, by the names the API answers them with. */
const objectOf = (entries: [string, SQLiteColumn][]) =>
	sql`json_object(${sql.join(
		entries.map(([name, column]) => sql`${literal(name)}, ${jsonValue(column)}`),
		sql`, `,
	)})`;

/**
 * The projection's row as the API answers it, as JSON built in SQL: booleans as booleans, a nullable column left out
 * when null (`json_patch` drops null members, so no resource has a nullable JSON column). Every answer is this.
 */
export const jsonObject = (projection: Projection) => {
	const entries = Object.entries(projection);
	const always = objectOf(entries.filter(([, column]) => column.notNull));
	const maybe = entries.filter(([, column]) => !column.notNull);
	return maybe.length === 0 ? always : sql`json_patch(${always}, ${objectOf(maybe)})`;
};

/** A table a resource shows columns of beside its own: how it is joined. */
type Join = { table: SQLiteTable; on: SQL };

/** A zod object schema, as far as a declaration reads it: the names of its fields. */
type Model = { shape: object };

/** The columns of `table` (and joined ones) that the model names: what the resource answers. */
type ProjectionOf<T extends SQLiteTable, M extends Model, Joined extends Projection> = Pick<
	T["_"]["columns"] & Joined,
	keyof M["shape"] & keyof (T["_"]["columns"] & Joined)
>;

type Declaration<
	T extends SQLiteTable,
	M extends Model,
	Path extends string,
	Param extends string,
	Joined extends Projection,
	Elsewhere extends string,
	Fold extends keyof T["_"]["columns"] & string,
> = {
	/** What the API calls one of them, in its messages: "Pet". */
	name: string;
	/** The collection's path, and the path parameter that names one: `/pets` and `petId`. */
	path: Path;
	param: Param;
	/** The table its rows live in. */
	table: T;
	/**
	 * The model it is answered as: each of its fields is the table's column of the same name (or a joined one, or
	 * one of `elsewhere`); a field with no column is a compile error, and stops the Worker at start-up.
	 */
	model: M &
		(Exclude<keyof M["shape"], keyof T["_"]["columns"] | keyof Joined | Elsewhere> extends never
			? unknown
			: {
					"a field of the model has no column": Exclude<
						keyof M["shape"],
						keyof T["_"]["columns"] | keyof Joined | Elsewhere
					>;
				});
	/** For a resource that shows columns of two rows: the table it joins, how, and the columns it shows of it. */
	join?: Join & { columns: Joined };
	/** Fields of the model that are not columns: answered from elsewhere (a webhook's delivery state). */
	elsewhere?: Elsewhere[];
	/** The column that identifies it, the last segment of its path: the table's `id` unless given. */
	key?: SQLiteColumn;
	/** The version columns of the rows it shows (the table's `version` unless given): each write bumps the first. */
	versions?: [SQLiteColumn, ...SQLiteColumn[]];
	/**
	 * The column that holds its `name` folded for comparison (src/models/name-key.ts), which every write of the name
	 * writes beside it; with `unique`, folded names are unique, and a taken one is refused with that error code.
	 */
	fold?: { column: Fold; unique?: ErrorCode };
} & (T["_"]["columns"] extends Record<"id" | "version", SQLiteColumn>
	? unknown
	: { key: SQLiteColumn; versions: [SQLiteColumn, ...SQLiteColumn[]] }) &
	// A table with a folded name must say so: no write of its rows may leave the fold out.
	(T["_"]["columns"] extends Record<"nameKey", SQLiteColumn>
		? { fold: { column: Fold; unique?: ErrorCode } }
		: unknown);

/**
 * A resource declared once: its name, its paths, its table, its model, its key, its ETag and its folded name. What
 * it answers is the model's fields read from the table's columns of the same names, so a new column reaches its
 * reads, lists, writes, events and idempotent replays with no other edit.
 */
export const defineResource = <
	T extends SQLiteTable,
	M extends Model,
	const Path extends string,
	const Param extends string,
	Joined extends Projection = Record<never, SQLiteColumn>,
	Elsewhere extends string = never,
	Fold extends keyof T["_"]["columns"] & string = never,
>(
	declaration: Declaration<T, M, Path, Param, Joined, Elsewhere, Fold>,
): Resource<T, Answer<ProjectionOf<T, M, Joined>>, Path, Param, Fold> => {
	const { name, table, join, model, elsewhere = [] } = declaration;
	const columns = { ...getTableColumns(table), ...join?.columns };
	// The table's own, which its type requires when the declaration names neither, never a joined one.
	const {
		id,
		version,
		nameKey: foldColumn,
	} = getTableColumns(table) as Partial<Record<string, SQLiteColumn>>;
	const key = declaration.key ?? (id as SQLiteColumn);
	const versions = declaration.versions ?? [version as SQLiteColumn];
	// The compiler names such a field too; a Worker started without the check would drop it from every answer.
	const unstored = Object.keys(model.shape).filter(
		(field) => !(field in columns) && !(elsewhere as string[]).includes(field),
	);
	if (unstored.length > 0) {
		throw new Error(
			`${name}: the model's field ${unstored.map((field) => `"${field}"`).join(", ")} has no column in the table "${getTableName(table)}"; add it to src/db/schema.ts, then run npm run db:generate.`,
		);
	}
	if (foldColumn && !declaration.fold) {
		throw new Error(
			`${name}: its table "${getTableName(table)}" holds a folded name (nameKey); declare its fold, or a write would store a name without it.`,
		);
	}
	const projection = Object.fromEntries(
		Object.entries(columns).filter(([field]) => field in model.shape),
	);
	return resourceOf<T, Answer<ProjectionOf<T, M, Joined>>, Path, Param, Fold>({
		...declaration,
		key,
		versions,
		projection,
	});
};

/** A resource declared once: what reads, lists, writes, events and idempotent replays of it all read. */
export type Resource<
	T extends SQLiteTable = SQLiteTable,
	A = unknown,
	Path extends string = string,
	Param extends string = string,
	Fold extends string = string,
> = ReturnType<typeof resourceOf<T, A, Path, Param, Fold>>;

/** The resource a valid declaration makes, answered as `A`. */
const resourceOf = <
	T extends SQLiteTable,
	A,
	Path extends string,
	Param extends string,
	Fold extends string,
>(declaration: {
	name: string;
	path: Path;
	param: Param;
	table: T;
	join?: Join;
	key: SQLiteColumn;
	versions: [SQLiteColumn, ...SQLiteColumn[]];
	projection: Projection;
	fold?: { column: Fold; unique?: ErrorCode };
}) => {
	const { name, path, param, table, join, key, versions, projection } = declaration;
	const json = jsonObject(projection);
	const etag = sql<string>`'"' || ${sql.join(
		versions.map((column) => sql`${column}`),
		sql` || '.' || `,
	)} || '"'`;
	const select = <F extends SelectedFields>(db: Db, fields: F) => {
		const query = db.select(fields).from(table).$dynamic();
		// Its fields are named, so the join changes what it reads, not the rows' shape.
		return join ? (query.innerJoin(join.table, join.on) as typeof query) : query;
	};
	const answer = () => sql`${json}`.mapWith((text: string): A => JSON.parse(text));
	const notFound = (id: number) => new ApiError("not_found", `${name} ${id} does not exist.`);
	const has = (db: Db, id: number, condition?: SQL) =>
		sql`${exists(select(db, { one: sql`1` }).where(and(eq(key, id), condition)))}`.mapWith(Boolean);
	// The tags travel as one JSON parameter: a header naming many cannot exceed D1's bound-parameter limit.
	const matches = (ifMatch: string[] | undefined) =>
		ifMatch && sql`${etag} IN (SELECT value FROM json_each(${JSON.stringify(ifMatch)}))`;
	const cleared = Object.fromEntries(
		Object.entries(getTableColumns(table)).flatMap(([field, column]) =>
			field in projection && !column.primary && !(column.notNull && !column.hasDefault)
				? [[field, column.default ?? null]]
				: [],
		),
	) as Partial<T["$inferInsert"]>;
	return {
		name,
		/** As declared, and one's path as the document writes it. */
		path,
		param,
		itemPath: `${path}/{${param}}` as `${Path}/{${Param}}`,
		table,
		key,
		/** The version a write of its row bumps. */
		version: versions[0],
		/** The resource as JSON built in SQL over its rows: what its events and idempotent replays carry. */
		json,
		/** Its strong ETag as SQL, from the versions of the rows it shows: `"3"`, or `"3.7"` for two. */
		etag,
		/** Its path as SQL over its rows, e.g. `/pets/1`. */
		subject: sql<string>`${`${path}/`} || ${key}`,
		/** The key of the newest row, the one a batch inserted once its insert has run: ids only grow. */
		newest: sql<number>`(select max(${key}) from ${table})`,
		fold: declaration.fold,
		/** What a `PUT` sets the optional fields it shows and does not carry to: their column's default, or null. */
		cleared,
		/** `fields`, with the fold of the name they give (if any) beside it. */
		folded: <F extends { name?: string }>(fields: F): F =>
			declaration.fold && fields.name !== undefined
				? { ...fields, [declaration.fold.column]: nameKey(fields.name) }
				: fields,
		pathOf: (id: number) => `${path}/${id}`,
		/** A SELECT of `fields` from its rows. */
		select,
		/** The resource as the API answers it, as a column of a SELECT over its rows. */
		answer,
		/** For a write's probe: the resource `id` as answered, with its ETag, or null when there is none. */
		answerAt: (db: Db, id: number | SQL) =>
			sql`${select(db, { answer: sql`json_object('answer', ${json}, 'etag', ${etag})` }).where(eq(key, id))}`.mapWith(
				(text: string): A & { etag: string } => {
					const found = JSON.parse(text);
					return { ...found.answer, etag: found.etag };
				},
			),
		/** Whether the resource `id` exists and `condition` holds for it, read through its join. */
		has,
		/** Holds while the resource has one of the ETags `If-Match` names; always, without one. */
		matches,
		/** For a change's probe: whether the resource `id` exists (and `within` holds), and still matches. */
		state: (db: Db, id: number, ifMatch?: string[], within?: SQL) => ({
			found: has(db, id, within),
			current: has(db, id, and(within, matches(ifMatch))),
		}),
		/** Throws why a change of `id` changed nothing, when its `state` says: 404, or 412. */
		mustBeCurrent: (id: number, { found, current }: { found: boolean; current: boolean }) => {
			if (!found) throw notFound(id);
			if (!current) throw new ApiError("precondition_failed");
		},
		/** What a write of `id` that changed nothing throws when nothing it read says why: a bug, answered 500. */
		unexplained: (id?: number) =>
			new Error(`${[name, id].join(" ")} was not written, and nothing the write read says why.`),
		/** What the event of the resource `id` once it is gone says: its path, and its id. */
		gone: (id: number) => ({
			subject: `${path}/${id}`,
			// D1 binds a number as a REAL, which the event's text would show as `1.0`.
			data: sql`json_object('id', CAST(${id} AS INTEGER))`,
		}),
		/** The resource whose key is `id` (and for which `where` holds), with its ETag, as answered; else 404. */
		find: async (db: Db, id: number, where?: SQL): Promise<A & { etag: string }> => {
			const [row] = await select(db, {
				answer: answer().as("answer"),
				etag: etag.as("etag"),
			}).where(and(eq(key, id), where));
			if (row === undefined) throw notFound(id);
			return { ...row.answer, etag: row.etag };
		},
		/** The page after `page.after` (and the next one's first) for which `where` holds, in key order. */
		page: async (db: Db, page: { after: number; limit: number }, where?: SQL) =>
			(
				await select(db, { answer: answer() })
					.where(and(gt(key, page.after), where))
					.orderBy(key)
					.limit(page.limit + 1)
			).map((row) => row.answer),
		notFound,
	};
};
