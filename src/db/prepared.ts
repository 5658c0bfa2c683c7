import {
	fillPlaceholders,
	type Placeholder,
	type Query,
	sql,
} from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Db } from "./client";

// Drizzle renders a statement's SQL each time it runs it, and for a create that costs more CPU than the rest of
// the request (test/bench/runtime.bench.ts). The statements whose SQL is the same for every request (creates, and
// one-resource reads) are built once per isolate with placeholders where the request's values go; each request
// binds its values on its own D1 session. These statements reach D1 without drizzle's session, so a drizzle logger
// would not see them.

/** A request's values, by name. */
export type Values = Record<string, unknown>;

/** The placeholders of the values `V`, written in a statement where the values go: `sql\`${values.name}\``. */
export type Placeholders<V extends Values> = {
	readonly [K in keyof V & string]: Placeholder<K, V[K]>;
};

export const placeholders = <V extends Values>() =>
	new Proxy({} as Placeholders<V>, {
		get: (_, name) => sql.placeholder(String(name)),
	});

/**
 * What statements rendered once are built with: a drizzle client over no database (its D1 `prepare` makes
 * nothing), so that a rendered statement holds on to no request's session.
 */
export const renderer: Db = drizzle({
	prepare: () => undefined,
} as unknown as D1Database);

/** A statement as drizzle builds it: it can be prepared. */
type Preparable = {
	prepare(): {
		getQuery(): Query;
		mapResult(response: unknown, isFromBatch?: boolean): unknown;
	};
};

/** A statement rendered once: its SQL, its parameters (placeholders among them) and how drizzle reads its rows. */
export type Rendered = {
	sql: string;
	params: unknown[];
	mapResult: (result: unknown, fromBatch: boolean) => unknown;
};

/** Renders a statement built with the {@link renderer}. */
export const render = (statement: unknown): Rendered => {
	const prepared = (statement as Preparable).prepare();
	const { sql, params } = prepared.getQuery();
	return {
		sql,
		params,
		mapResult: (result, fromBatch) => prepared.mapResult(result, fromBatch),
	};
};

/** The rendered statement with `values` bound, on the request's D1 session. */
export const bind = (db: Db, { sql, params }: Rendered, values: Values) =>
	db.$client.prepare(sql).bind(...fillPlaceholders(params, values));
