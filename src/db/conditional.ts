import { and, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./client";

// Helpers for writes whose precondition lives in the SQL, so that no read-then-write race is possible.

/** `EXISTS (SELECT 1 FROM table WHERE condition)`. */
export const exists = (table: SQLiteTable, condition: SQL | undefined) =>
	sql<boolean>`EXISTS (SELECT 1 FROM ${table} WHERE ${condition ?? sql`1`})`;

/** The id column of an INSERT … SELECT: NULL lets SQLite assign the next id. */
export const autoId = sql<number>`NULL`.as("id");

/** A one-row FROM, for an INSERT … SELECT that reads no table of its own. */
export const oneRow = sql`(SELECT 1)`;

/**
 * A one-row SELECT of named conditions, batched with a conditional write to say why it changed nothing.
 * Each column is aliased by its name: D1 batches return rows as objects, and an unaliased column such as
 * `1` would be reordered before the others.
 */
export const probe = <K extends string>(db: Db, conditions: Record<K, SQL>) =>
	db
		.select(
			Object.fromEntries(
				Object.entries<SQL>(conditions).map(([name, condition]) => [
					name,
					sql<boolean>`${condition}`.mapWith(Boolean).as(name),
				]),
			) as Record<K, SQL.Aliased<boolean>>,
		)
		.from(oneRow);

/**
 * True when the representation's ETag is one of those of an `If-Match` header, or there was none. The tags
 * travel as one JSON parameter, so a header naming many of them cannot exceed D1's bound-parameter limit.
 */
export const matchesETag = (etag: SQL, expected: string[] | undefined) =>
	expected === undefined
		? sql`1`
		: sql`${etag} IN (SELECT value FROM json_each(${JSON.stringify(expected)}))`;

/** Sets `version = version + 1`: every write of a row changes its ETag. */
export const bump = (version: SQLiteColumn) => sql`${version} + 1`;

/**
 * Probe conditions for a conditional write to one row: whether the row exists, and whether it also still
 * matches the `If-Match` ETags (`current`, from {@link matchesETag}).
 */
export const rowState = (table: SQLiteTable, row: SQL, current: SQL) => ({
	found: exists(table, row),
	current: exists(table, and(row, current)),
});

/**
 * Why a conditional write to one row changed nothing, from its {@link rowState}: the row is `missing`, its ETag
 * moved on since `If-Match` (`stale`), or else the write's own condition `refused` it.
 */
export type Unchanged = "missing" | "stale" | "refused";

export const whyUnchanged = ({
	found,
	current,
}: {
	found: boolean;
	current: boolean;
}): Unchanged => (!found ? "missing" : current ? "refused" : "stale");
