import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The trigram index of pets' name keys, whose rowid is the pet's id: an FTS5 table (drizzle/0000_initial.sql, at
 * its end), which drizzle-kit does not model, so it is declared here and not in the schema.
 */
export const petNames = sqliteTable("pet_names", {
	rowid: integer("rowid").notNull(),
	nameKey: text("name_key").notNull(),
});
