import {
	fillPlaceholders,
	type Placeholder,
	type Query,
	sql,
} from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Db } from "./client";

// Drizzle renders a statement's SQL each time it runs it, and for a create that costs more CPU than the rest of
// the request. A statement whose SQL is the same for every request is built once per isolate with placeholders
// (`$("name")`) where the request's values go; each request then only binds its values, on its own D1 session.
// These statements reach D1 without drizzle's session, so a drizzle logger would not see them.

/** A request's values, by the names of the placeholders they fill. */
export type Values = Record<string, unknown>;

/** Where a prepared statement takes the value `name` of `V`. */
export type Slot<V extends Values> = <K extends keyof V & string>(
	name: K,
) => Placeholder<K, V[K]>;

/** The placeholders of the values `V`. */
export const slot = <V extends Values>(): Slot<V> => sql.placeholder;

/**
 * What prepared statements are built with: a drizzle client over no database (its D1 `prepare` makes nothing),
 * so that a rendered statement holds on to no request's session. Every value a statement does not take through
 * a placeholder is fixed when it is built.
 */
export const renderer: Db = drizzle({
	prepare: () => undefined,
} as unknown as D1Database);

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

/** Renders a statement built with the {@link renderer}. */
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
 * A SELECT whose SQL is the same for every request, built once per isolate by `build` with placeholders for the
 * values of `V`. Answers its rows as drizzle maps them.
 */
export const preparedSelect = <
	V extends Values = Record<never, never>,
	// Rows: a statement that answers a D1 result, such as an UPDATE without RETURNING, is no select.
	S extends Preparable & PromiseLike<unknown[]> = never,
>(
	build: (db: Db, $: Slot<V>) => S,
) => {
	let rendered: Rendered | undefined;
	return async (db: Db, values: NoInfer<V>): Promise<Awaited<S>> => {
		rendered ??= render(build(renderer, slot<V>()));
		const rows = await bind(db, rendered, values).raw();
		return rendered.mapResult(rows, false) as Awaited<S>;
	};
};
