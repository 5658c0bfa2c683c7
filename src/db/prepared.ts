import {
	fillPlaceholders,
	type Placeholder,
	type Query,
	sql,
} from "drizzle-orm";
import type { Db } from "./client";

// Drizzle renders a statement's SQL each time it runs it, and for a create that costs more CPU than the rest of
// the request. A statement whose SQL is the same for every request is built once per isolate with placeholders
// (`$("name")`) where the request's values go; each request then only binds its values.

/** A request's values, by the names of the placeholders they fill. */
export type Values = Record<string, unknown>;

/** Where a prepared statement takes the value `name` of `V`. */
export type Slot<V extends Values> = <K extends keyof V & string>(
	name: K,
) => Placeholder<K, V[K]>;

/** The placeholder of every prepared statement's values. */
export const slot = <V extends Values>(): Slot<V> => sql.placeholder;

/** A statement as drizzle builds it: it can be prepared. */
export type Preparable = {
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

/** Renders the statement's SQL. (The query drizzle prepares for it is never run: only its mapping is kept.) */
export const render = (statement: Preparable): Rendered => {
	const prepared = statement.prepare();
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

/**
 * A read of rows whose SQL is the same for every request: `build` runs once per isolate, with placeholders for
 * the values of `V`. Answers the rows as drizzle maps them.
 */
export const preparedRead = <
	V extends Values,
	S extends Preparable & PromiseLike<unknown>,
>(
	build: (db: Db, $: Slot<V>) => S,
) => {
	let rendered: Rendered | undefined;
	return async (db: Db, values: V): Promise<Awaited<S>> => {
		rendered ??= render(build(db, slot<V>()));
		const rows = await bind(db, rendered, values).raw();
		return rendered.mapResult(rows, false) as Awaited<S>;
	};
};
