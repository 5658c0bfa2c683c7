import { and, eq, gt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { petNames } from "../../db/pet-names";
import { pet } from "../../db/resources";
import { pets } from "../../db/schema";
import { walkEach } from "../../db/walks";
import type { Page } from "../../http/pagination";
import { limits } from "../../models/limits";
import { nameKey } from "../../models/name-key";
import type { PetStatus } from "../../models/pet-status";

/**
 * Pets as the API answers them, whose name holds `name` if given (case-insensitively, every character literal)
 * through the trigram index: `query` reads them, `id` pages and orders them, `holds` tests the name. A request
 * examines at most `limits.nameMatchesPerRequest` matches after `after`; `windowEnd`, the last, starts the next page.
 */
const petsNamed = (db: Db, name: string | undefined, after: number) => {
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

type PetFilter = Page & { status?: PetStatus[]; categoryId?: number; name?: string };

/** The page of pets after `filter.after`, and the next one's first if any; a name filter: see {@link petsNamed}. */
export const listPets = async (db: Db, filter: PetFilter) => {
	const { query, id, holds, windowEnd } = petsNamed(db, filter.name, filter.after);
	const { rows, alongside } = await walkEach(db, {
		values: filter.status,
		walk: (status) =>
			query()
				.where(
					and(
						holds,
						gt(id, filter.after),
						status && eq(pets.status, status),
						filter.categoryId === undefined ? undefined : eq(pets.categoryId, filter.categoryId),
					),
				)
				.orderBy(id)
				.limit(filter.limit + 1),
		size: filter.limit + 1,
		id: ({ answer }) => answer.id,
		alongside: windowEnd,
	});
	return { rows: rows.map(({ answer }) => answer), through: alongside[0]?.through };
};
