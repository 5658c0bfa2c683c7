import { and, eq, gt, type SQL, sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { limits } from "../models/limits";
import { nameKey } from "../models/name-key";
import type { Db } from "./client";
import { pet } from "./resources";
import { pets } from "./schema";

/**
 * The trigram index of pets' name keys, whose rowid is the pet's id: an FTS5 table (drizzle/0000_initial.sql, at
 * its end), which drizzle-kit does not model, so it is declared here and not in the schema.
 */
export const petNames = sqliteTable("pet_names", {
	rowid: integer("rowid").notNull(),
	nameKey: text("name_key").notNull(),
});

/**
 * Pets as the API answers them, whose name holds `name` if given (case-insensitively, every character literal)
 * through the trigram index: `query` reads them, `id` pages and orders them, `holds` tests the name. A request
 * examines at most `limits.nameMatchesPerRequest` matches after `after`; `windowEnd`, the last, starts the next page.
 */
export const petsNamed = (db: Db, name: string | undefined, after: number) => {
	if (name === undefined) {
		return { query: () => pet.select(db, { answer: pet.answer() }), id: pets.id };
	}
	const key = nameKey(name);
	const phrase = `"${key.replaceAll('"', '""')}"`;
	const matches = and(sql`${petNames} MATCH ${phrase}`, gt(petNames.rowid, after));
	const windowEnd = db
		.select({ through: petNames.rowid })
		.from(petNames)
		.where(matches)
		.orderBy(petNames.rowid)
		.limit(1)
		.offset(limits.nameMatchesPerRequest - 1);
	return {
		// CROSS JOIN keeps the index first: the walk examines name matches, never a status's or category's rows.
		query: () => db.select({ answer: pet.answer() }).from(petNames).crossJoin(pets).$dynamic(),
		// The index's rowid is the pet's id.
		id: petNames.rowid,
		// The exact test, also behind the index, whose tokenizer reads U+FFFE and U+FFFF as U+FFFD. instr() rather
		// than LIKE: `%` and `_` in the filter match literally.
		holds:
			sql`${eq(pets.id, petNames.rowid)} AND ${matches} AND ${petNames.rowid} <= coalesce(${windowEnd}, ${Number.MAX_SAFE_INTEGER}) AND instr(${pets.nameKey}, ${key}) > 0` as SQL,
		windowEnd,
	};
};
