import { and, eq, exists, gt, ne, not, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { petNames } from "../../db/pet-names";
import { category, inventoryItem, pet } from "../../db/resources";
import { inventory, orders, pets } from "../../db/schema";
import { walkEach } from "../../db/walks";
import {
	afterChange,
	eventRow,
	idempotencyRecord,
	insertWhere,
	runWrite,
	type WriteContext,
} from "../../db/write";
import type { Page } from "../../http/pagination";
import { ApiError } from "../../models/error";
import { limits } from "../../models/limits";
import { nameKey } from "../../models/name-key";
import type { NewPet } from "../../models/pet";
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

const unknownCategory = (categoryId: number) =>
	new ApiError("unknown_category", `Category ${categoryId} does not exist.`);

/** Creates the pet, only if its category exists, with its empty inventory item and its event, in one batch. */
export const createPet = async (ctx: WriteContext, fields: NewPet) => {
	const { db } = ctx;
	const inCategory = category.has(db, fields.categoryId);
	const keyed = idempotencyRecord(ctx, pet);
	const probe = await runWrite(db, {
		before: keyed.forget,
		write: insertWhere(db, pets, pet.folded(fields), and(inCategory, keyed.unused)),
		after: [
			insertWhere(db, inventory, { petId: pet.newest }, afterChange),
			eventRow(ctx, "pet.created", pet, pet.newest),
			...keyed.record,
		],
		probe: { pet: pet.answerAt(db, pet.newest), inCategory, stored: keyed.stored },
	});
	if (probe.written && probe.pet) return { pet: probe.pet, replayed: false };
	if (probe.stored) return { pet: keyed.replay(probe.stored), replayed: true };
	if (!probe.inCategory) throw unknownCategory(fields.categoryId);
	throw pet.unexplained();
};

/** What a change of a pet sets: a patch's fields, or a replacement's (an optional one cleared to null). */
type PetChanges = Omit<Partial<typeof pets.$inferInsert>, "id" | "nameKey" | "version">;

/** Applies the changes to a current pet in an existing category; a new status moves its inventory item too. */
export const updatePet = async (ctx: WriteContext, id: number, changes: PetChanges) => {
	const { db, ifMatch } = ctx;
	const { categoryId, status } = changes;
	const inCategory = categoryId === undefined ? sql`1` : category.has(db, categoryId);
	const allowed = and(eq(pets.id, id), pet.matches(ifMatch), inCategory);
	const probe = await runWrite(db, {
		// First, while the old status can be compared: the item's event only when its status moves. It leaves the
		// version to the write, whose If-Match a bump here would fail.
		before:
			status === undefined
				? []
				: [
						db
							.update(pets)
							.set({ status })
							.where(and(allowed, ne(pets.status, status))),
						eventRow(ctx, "inventory.updated", inventoryItem, id),
					],
		write: db
			.update(pets)
			.set({ ...pet.folded(changes), version: sql`${pets.version} + 1` })
			.where(allowed),
		after: [eventRow(ctx, "pet.updated", pet, id)],
		probe: { pet: pet.answerAt(db, id), ...pet.state(db, id, ifMatch), inCategory },
	});
	if (probe.written && probe.pet) return probe.pet;
	pet.mustBeCurrent(id, probe);
	if (!probe.inCategory && categoryId !== undefined) throw unknownCategory(categoryId);
	throw pet.unexplained(id);
};

/** Deletes the pet (and, by cascade, its inventory item) unless it changed or has open orders. */
export const deletePet = async (ctx: WriteContext, id: number) => {
	const { db, ifMatch } = ctx;
	const open = and(eq(orders.petId, id), eq(orders.complete, false));
	const openOrders = exists(db.select({ id: orders.id }).from(orders).where(open));
	const probe = await runWrite(db, {
		write: db.delete(pets).where(and(eq(pets.id, id), pet.matches(ifMatch), not(openOrders))),
		after: [eventRow(ctx, "pet.deleted", pet.gone(id))],
		probe: { ...pet.state(db, id, ifMatch), openOrders },
	});
	if (probe.written) return;
	pet.mustBeCurrent(id, probe);
	if (!probe.openOrders) throw pet.unexplained(id);
	throw new ApiError(
		"pet_has_open_orders",
		`Pet ${id} has open orders; complete or cancel them first.`,
	);
};
