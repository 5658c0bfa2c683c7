import { eq, type SQL, sql } from "drizzle-orm";
import type {
	SelectedFields,
	SQLiteColumn,
	SQLiteTable,
} from "drizzle-orm/sqlite-core";
import type { Db } from "./client";
import { preparedSelect, type Slot } from "./prepared";

/** The columns a resource shows, by the names the API answers them with. */
type Projection = Record<string, SQLiteColumn>;

type Nullable<P extends Projection> = {
	[K in keyof P]: P[K]["_"]["notNull"] extends true ? never : K;
}[keyof P];

/** A resource as the API answers it: a nullable column is absent rather than null. */
type Answer<P extends Projection> = {
	[K in Exclude<keyof P, Nullable<P>>]: P[K]["_"]["data"];
} & { [K in Nullable<P>]?: P[K]["_"]["data"] };

const isBoolean = (column: SQLiteColumn) =>
	column.columnType === "SQLiteBoolean";

/**
 * A column's value as JSON: a boolean column holds 0 or 1, which the API answers as `false` or `true`; a JSON
 * column holds JSON text, answered as the value it encodes.
 */
const jsonValue = (column: SQLiteColumn) => {
	if (isBoolean(column)) {
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

type Declaration<P extends Projection> = {
	/** The collection's path; a resource's own path is this, `/`, and its key. */
	path: string;
	/** The table its rows live in, and (for a resource that shows columns of two rows) the one it joins. */
	table: SQLiteTable;
	join?: { table: SQLiteTable; on: SQL };
	/** The column that identifies it: its id, the last segment of its path. */
	key: SQLiteColumn;
	projection: P;
	/** The version columns of the rows it shows: each write bumps them, which changes its strong ETag. */
	versions: SQLiteColumn[];
};

/**
 * A resource declared once: its table, its path, its key, the columns it answers with and its ETag. Reads,
 * writes, event `data` and idempotent replays all derive from it.
 */
export const defineResource = <P extends Projection>(
	declaration: Declaration<P>,
) => {
	const { path, table, join, key, projection, versions } = declaration;
	const etag = etagOf(versions);
	/** A SELECT of `fields` from its rows, joined as declared. */
	const select = <F extends SelectedFields>(db: Db, fields: F) => {
		const query = db.select(fields).from(table).$dynamic();
		return join ? query.innerJoin(join.table, join.on) : query;
	};
	const tagged = { ...projection, etag };
	const byKey = preparedSelect((db, $: Slot<{ key: number }>) =>
		select(db, tagged).where(eq(key, $("key"))),
	);
	const nullable = Object.entries(projection)
		.filter(([, column]) => !column.notNull)
		.map(([name]) => name);
	return {
		path,
		table,
		key,
		projection,
		etag,
		/** The projection and the ETag, for the reads and writes that answer one resource. */
		tagged,
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
		/** The resource whose key is `id`, with its ETag, if there is one. */
		find: (db: Db, id: number) =>
			byKey(db, { key: id }).then((rows) => rows.at(0)),
		/** A row read through the projection, as the API answers it (see {@link Answer}). */
		answer: <R extends Record<string, unknown>>(row: R) => {
			const answer: Record<string, unknown> = { ...row };
			for (const name of nullable)
				if (answer[name] === null) delete answer[name];
			return answer as Omit<R, keyof P> & Answer<P>;
		},
	};
};

/** What writes of any resource read of its declaration. */
export type Resource = Pick<
	ReturnType<typeof defineResource>,
	"table" | "key" | "etag" | "json" | "subject" | "pathOf" | "newest" | "select"
>;
