import { sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The trigram index of pets' name keys (created at the end of drizzle/0000_initial.sql): an FTS5 table, which drizzle-kit
 * does not model, so it is declared here and not in the schema. Its rowid is the pet's id.
 */
export const petNames = sqliteTable("pet_names", {
	rowid: integer("rowid").notNull(),
	nameKey: text("name_key").notNull(),
});

/** Whether the trigram index can find `key`: it indexes every run of three characters, so not a shorter key. */
export const indexable = (key: string) => [...key].length >= 3;

/** The names holding `key`: one FTS5 phrase, every character of it literal. */
export const containing = (key: string) =>
	sql`${petNames} MATCH ${`"${key.replaceAll('"', '""')}"`}`;
