import { eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type {
	SelectedFields,
	SQLiteColumn,
	SQLiteTable,
} from "drizzle-orm/sqlite-core";
import { ApiError } from "../models/error";
import type { Db } from "./client";
import { bind, type Rendered, render, renderer } from "./prepared";

/** The columns a resource shows, by the names the API answers them with. */
type Projection = Record<string, SQLiteColumn>;

type Nullable<P extends Projection> = {
	[K in keyof P]: P[K]["_"]["notNull"] extends true ? never : K;
}[keyof P];

/** A resource as the API answers it: a nullable column is absent rather than null. */
type Answer<P extends Projection> = {
	[K in Exclude<keyof P, Nullable<P>>]: P[K]["_"]["data"];
} & { [K in Nullable<P>]?: P[K]["_"]["data"] };

/**
 * A column's value as JSON: a boolean column holds 0 or 1, which the API answers as `false` or `true`; a JSON
 * column holds JSON text, answered as the value it encodes.
 */
const jsonValue = (column: SQLiteColumn) => {
	if (column.columnType === "SQLiteBoolean") {
		return sql`json(CASE WHEN ${column} THEN 'true' ELSE 'false' END)`;
	}
	return column.columnType === "SQLiteTextJson"
		? sql`json(${column})`
		: sql`${column}`;
};

const pairs = (entries: [string, SQLiteColumn][]) =>
	sql.join(
		entries.map(([name, column]) => sql`${name}, ${jsonValue(column)}`),
		sql`, `,
	);

/**
 * The projection's row as the API answers it, built as JSON in SQL (for events and idempotent replays): the same
 * names, booleans as booleans, and nullable columns left out when null (`json_patch` drops a null member).
 */
const jsonObject = (projection: Projection) => {
	const entries = Object.entries(projection);
	const always = entries.filter(([, column]) => column.notNull);
	const maybe = entries.filter(([, column]) => !column.notNull);
	const object = sql`json_object(${pairs(always)})`;
	return maybe.length === 0
		? object
		: sql`json_patch(${object}, json_object(${pairs(maybe)}))`;
};

/** A representation's strong ETag as SQL, from the versions of the rows it shows: `"3"`, or `"3.7"` for two. */
const etagOf = (versions: SQLiteColumn[]) =>
	sql<string>`'"' || ${sql.join(versions, sql` || '.' || `)} || '"'`;

type Declaration<
	T extends SQLiteTable,
	P extends Projection,
	Path extends string,
	Param extends string,
> = {
	/** What the API calls one of them, in its messages: "Pet". */
	name: string;
	/** The collection's path, and the path parameter that names one: `/pets` and `petId`. */
	path: Path;
	param: Param;
	/** The table its rows live in, and (for a resource that shows columns of two rows) the one it joins. */
	table: T;
	join?: { table: SQLiteTable; on: SQL };
	/** The column that identifies it: its id, the last segment of its path. */
	key: SQLiteColumn;
	projection: P;
	/** The version columns of the rows it shows: each write bumps the first, which changes its strong ETag. */
	versions: [SQLiteColumn, ...SQLiteColumn[]];
};

/**
 * A resource declared once: its name, its paths, its table, its key, the columns it answers with and its ETag.
 * Routes, reads, writes, event `data` and idempotent replays all derive from it.
 */
export const defineResource = <
	T extends SQLiteTable,
	P extends Projection,
	const Path extends string,
	const Param extends string,
>(
	declaration: Declaration<T, P, Path, Param>,
) => {
	const { name, path, param, table, join, key, projection, versions } =
		declaration;
	const etag = etagOf(versions);
	/** A SELECT of `fields` from its rows, joined as declared. */
	const select = <F extends SelectedFields>(db: Db, fields: F) => {
		const query = db
			.select(fields)
			.from(table as SQLiteTable)
			.$dynamic();
		// Its fields are named, so the join changes what it reads, not the rows' shape.
		return join
			? (query.innerJoin(join.table, join.on) as typeof query)
			: query;
	};
	const tagged = { ...projection, etag };
	const nullable = Object.entries(projection)
		.filter(([, column]) => !column.notNull)
		.map(([name]) => name);
	/** A row read through the projection, as the API answers it (see {@link Answer}). */
	const answer = <R extends Record<string, unknown>>(row: R) => {
		const answered: Record<string, unknown> = { ...row };
		for (const name of nullable)
			if (answered[name] === null) delete answered[name];
		return answered as Omit<R, keyof P> & Answer<P>;
	};
	/** The resource with its ETag by key, built once per isolate with a placeholder (src/db/prepared.ts). */
	const byKey = () =>
		select(renderer, tagged).where(eq(key, sql.placeholder("id")));
	let rendered: Rendered | undefined;
	const notFound = (id: number) =>
		new ApiError("not_found", `${name} ${id} does not exist.`);
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
		json: jsonObject(projection),
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
		/** The resource `key` with its ETag, as a query a batch can run; see {@link answer}. */
		tagged: (db: Db, id: number | SQL) => select(db, tagged).where(eq(key, id)),
		answer,
		/** The resource whose key is `id`, with its ETag, as the API answers it; 404 when there is none. */
		find: async (db: Db, id: number) => {
			rendered ??= render(byKey());
			const rows = await bind(db, rendered, { id }).raw();
			const [row] = rendered.mapResult(rows, false) as Awaited<
				ReturnType<typeof byKey>
			>;
			if (row === undefined) throw notFound(id);
			return answer(row);
		},
		/** The page of resources after `page.after` (and the next one's first), in key order, as answered. */
		page: async (db: Db, page: { after: number; limit: number }) =>
			(
				await select(db, projection as Projection)
					.where(sql`${key} > ${page.after}`)
					.orderBy(key)
					.limit(page.limit + 1)
			).map(answer),
		notFound,
		/** The same resource read with more columns (a webhook with its endpoint's config), for its own writes. */
		with: <E extends Projection>(extra: E) =>
			defineResource({
				...declaration,
				projection: { ...projection, ...extra },
			}),
	};
};

type AnyResource = ReturnType<
	typeof defineResource<SQLiteTable, Projection, string, string>
>;

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
	| "pathOf"
	| "newest"
	| "select"
	| "notFound"
> & {
	tagged: (db: Db, id: number | SQL) => BatchItem<"sqlite">;
	answer: <R extends Record<string, unknown>>(row: R) => unknown;
	find: (db: Db, id: number) => Promise<unknown>;
};
