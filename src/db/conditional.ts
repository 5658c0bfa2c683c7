import { type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
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
