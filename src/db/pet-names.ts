import { eq, type SQL, sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Db } from "./client";
import { nameKey } from "./name-key";
import { pet } from "./resources";
import { pets } from "./schema";

/**
 * The trigram index of pets' name keys (created at the end of drizzle/0000_initial.sql): an FTS5 table, which drizzle-kit
 * does not model, so it is declared here and not in the schema. Its rowid is the pet's id.
 */
export const petNames = sqliteTable("pet_names", {
	rowid: integer("rowid").notNull(),
	nameKey: text("name_key").notNull(),
});

/**
 * Pets as the API answers them, walked in id order, whose name holds `name` (case-insensitively, every character
 * literal) when one is given: `query` reads them, `id` is the column to page and order by, `named` the name test.
 * A name of three characters or more is found through the trigram index (which indexes every run of three); a
 * shorter one is checked pet by pet.
 */
export const petsNamed = (db: Db, name: string | undefined) => {
	const key = name === undefined ? undefined : nameKey(name);
	// The exact test, also behind the index, whose tokenizer reads U+FFFE and U+FFFF as U+FFFD. instr() rather
	// than LIKE: `%` and `_` in the filter match literally.
	const holds: SQL | undefined =
		key === undefined ? undefined : sql`instr(${pets.nameKey}, ${key}) > 0`;
	if (key === undefined || [...key].length < 3) {
		return { query: () => pet.select(db, pet.projection), id: pets.id, holds };
	}
	const phrase = `"${key.replaceAll('"', '""')}"`;
	return {
		query: () =>
			db
				.select(pet.projection)
				.from(petNames)
				.innerJoin(pets, eq(pets.id, petNames.rowid))
				.$dynamic(),
		// The index's rowid is the pet's id.
		id: petNames.rowid,
		holds: sql`${petNames} MATCH ${phrase} AND ${holds}`,
	};
};
