import { and, eq, getTableColumns, getTableName, gt, type SQL, sql } from "drizzle-orm";
import type { SelectedFields, SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { ApiError } from "../models/error";
import type { Db } from "./client";

/** The columns a resource shows, by the names the API answers them with. */
type Projection = Record<string, SQLiteColumn>;

type Nullable<P extends Projection> = {
	[K in keyof P]: P[K]["_"]["notNull"] extends true ? never : K;
}[keyof P];

/** A resource as the API answers it: a nullable column that holds null is left out (API.md §1). */
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
 * `'name', value, …`: the names are the model's field names (identifiers of our code, never input), written as
 * literals so that they bind none of the 100 parameters D1 allows a statement.
 */
const pairs = (entries: [string, SQLiteColumn][]) =>
	sql.join(
		entries.map(([name, column]) => sql`${sql.raw(`'${name}'`)}, ${jsonValue(column)}`),
		sql`, `,
	);

/**
 * The projection's row as the API answers it, built as JSON in SQL, the one place the rule for absent values
 * lives: the same names, booleans as booleans, and nullable columns left out when null (`json_patch` drops a
 * null member, and would drop those inside a nullable JSON column too, which no resource has). Reads, lists,
 * events and idempotent replays all answer this.
 */
const jsonObject = (projection: Projection) => {
	const entries = Object.entries(projection);
	const always = entries.filter(([, column]) => column.notNull);
	const maybe = entries.filter(([, column]) => !column.notNull);
	const object = sql`json_object(${pairs(always)})`;
	return maybe.length === 0 ? object : sql`json_patch(${object}, json_object(${pairs(maybe)}))`;
};

/** A representation's strong ETag as SQL, from the versions of the rows it shows: `"3"`, or `"3.7"` for two. */
const etagOf = (versions: SQLiteColumn[]) =>
	sql<string>`'"' || ${sql.join(versions, sql` || '.' || `)} || '"'`;

/** A zod object schema, as far as a declaration reads it: the names of its fields. */
type Model = { shape: object };

type Declaration<
	T extends SQLiteTable,
	M extends Model,
	Path extends string,
	Param extends string,
	Joined extends Projection,
	Elsewhere extends string,
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
	 * one of `elsewhere`); a field with no column is a compile error.
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
	join?: { table: SQLiteTable; on: SQL; columns: Joined };
	/** Fields of the model that are not columns: answered from elsewhere (a webhook's delivery state). */
	elsewhere?: Elsewhere[];
	/** The column that identifies it: its id, the last segment of its path. */
	key: SQLiteColumn;
	/** The version columns of the rows it shows: each write bumps the first, which changes its strong ETag. */
	versions: [SQLiteColumn, ...SQLiteColumn[]];
};

/** The columns of `table` (and joined ones) that the model names: what the resource answers. */
type ProjectionOf<T extends SQLiteTable, M extends Model, Joined extends Projection> = Pick<
	T["_"]["columns"] & Joined,
	keyof M["shape"] & keyof (T["_"]["columns"] & Joined)
>;

/**
 * A resource declared once: its name, its paths, its table, its model, its key and its ETag. What it answers is
 * the model's fields read from the table's columns of the same names, so a new column reaches its reads, lists,
 * writes, events and idempotent replays with no other edit.
 */
export const defineResource = <
	T extends SQLiteTable,
	M extends Model,
	const Path extends string,
	const Param extends string,
	Joined extends Projection = Record<never, SQLiteColumn>,
	Elsewhere extends string = never,
>(
	declaration: Declaration<T, M, Path, Param, Joined, Elsewhere>,
) => {
	const { name, path, param, table, join, key, model, versions, elsewhere = [] } = declaration;
	const columns = { ...getTableColumns(table), ...join?.columns };
	// The compiler names such a field too; a Worker started without the check would drop it from every answer.
	const unstored = Object.keys(model.shape).filter(
		(field) => !(field in columns) && !(elsewhere as string[]).includes(field),
	);
	if (unstored.length > 0) {
		throw new Error(
			`${name}: the model's field ${unstored.map((field) => `"${field}"`).join(", ")} has no column in the table "${getTableName(table)}"; add it to src/db/schema.ts, then run npm run db:generate.`,
		);
	}
	const projection = Object.fromEntries(
		Object.entries(columns).filter(([field]) => field in model.shape),
	) as ProjectionOf<T, M, Joined>;
	const json = jsonObject(projection);
	const etag = etagOf(versions);
	/** A SELECT of `fields` from its rows, joined as declared. */
	const select = <F extends SelectedFields>(db: Db, fields: F) => {
		const query = db
			.select(fields)
			.from(table as SQLiteTable)
			.$dynamic();
		// Its fields are named, so the join changes what it reads, not the rows' shape.
		return join ? (query.innerJoin(join.table, join.on) as typeof query) : query;
	};
	type Answered = Answer<ProjectionOf<T, M, Joined>>;
	/** The resource as the API answers it (or as `shown` says, in JSON), as a column of a SELECT over its rows. */
	const answer = (shown = json) =>
		sql`${shown}`.mapWith((text: string): Answered => JSON.parse(text));
	const notFound = (id: number) => new ApiError("not_found", `${name} ${id} does not exist.`);
	/**
	 * The resource `id` as {@link answer} shows it, with its ETag, as a query a batch can run (no row: none); its
	 * fields named `answer` and `etag`, as a D1 batch answers rows as objects by name.
	 */
	const tagged = (db: Db, id: number | SQL, shown?: SQL) =>
		select(db, { answer: answer(shown).as("answer"), etag: etag.as("etag") }).where(eq(key, id));
	return {
		name,
		table,
		key,
		/** The version a write of its row bumps. */
		version: versions[0],
		projection,
		etag,
		/** The collection's path, and one resource's as the document writes it: `/pets/{petId}`. */
		path,
		itemPath: `${path}/{${param}}` as `${Path}/{${Param}}`,
		/** The resource as JSON built in SQL over its rows: what its events and idempotent replays carry. */
		json,
		/** Its path as SQL over its rows, e.g. `/pets/1`. */
		subject: sql<string>`${`${path}/`} || ${key}`,
		/** The path of the resource `id`. */
		pathOf: (id: number) => `${path}/${id}`,
		/**
		 * The key of the newest row, which is the one a batch inserted once its insert has run: ids only grow
		 * (`AUTOINCREMENT`).
		 */
		newest: sql<number>`(SELECT max(${key}) FROM ${table})`,
		select,
		answer,
		tagged,
		/** The resource whose key is `id`, with its ETag, as the API answers it; 404 when there is none. */
		find: async (db: Db, id: number) => {
			const [row] = await tagged(db, id);
			if (row === undefined) throw notFound(id);
			return { ...row.answer, etag: row.etag };
		},
		/**
		 * The page of resources after `page.after` (and the next one's first) for which `where` holds, in key order,
		 * as answered.
		 */
		page: async (db: Db, page: { after: number; limit: number }, where?: SQL) =>
			(
				await select(db, { answer: answer() })
					.where(and(gt(key, page.after), where))
					.orderBy(key)
					.limit(page.limit + 1)
			).map((row) => row.answer),
		notFound,
		/** The same resource read with more of its table's columns (a webhook with its endpoint's config). */
		with: <E extends Projection>(extra: E) =>
			defineResource({
				...declaration,
				model: { shape: { ...model.shape, ...extra } },
			} as unknown as Declaration<T, M & { shape: E }, Path, Param, Joined, Elsewhere>),
	};
};

type AnyResource = ReturnType<typeof defineResource<SQLiteTable, Model, string, string>>;

/** What writes of any resource read of its declaration. */
export type Resource = Pick<
	AnyResource,
	| "name"
	| "table"
	| "key"
	| "version"
	| "etag"
	| "json"
	| "subject"
	| "path"
	| "newest"
	| "select"
	| "notFound"
	| "projection"
> & {
	tagged: (db: Db, id: number | SQL, shown?: SQL) => ReturnType<AnyResource["tagged"]>;
	find: (db: Db, id: number) => Promise<unknown>;
};
