import { and, eq, exists, ne, not, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { inventoryItem, pet } from "../../db/resources";
import { categories, inventory, orders, pets } from "../../db/schema";
import {
	afterChange,
	eventRow,
	idempotencyRecord,
	insertWhere,
	runWrite,
	type WriteContext,
} from "../../db/write";
import { ApiError } from "../../models/error";
import { nameKey } from "../../models/name-key";
import type { NewPet, PetPatch } from "../../models/pet";

/** Whether the category exists. */
const categoryExists = (db: Db, categoryId: number) =>
	exists(db.select({ id: categories.id }).from(categories).where(eq(categories.id, categoryId)));

const unknownCategory = (categoryId: number) =>
	new ApiError("unknown_category", `Category ${categoryId} does not exist.`);

/** Creates the pet, only if its category exists, with its empty inventory item and its event, in one batch. */
export const createPet = async (ctx: WriteContext, fields: NewPet) => {
	const { db } = ctx;
	const inCategory = categoryExists(db, fields.categoryId);
	const keyed = idempotencyRecord(ctx, pet);
	const probe = await runWrite(
		db,
		[
			...keyed.forget,
			insertWhere(
				db,
				pets,
				{ ...fields, nameKey: nameKey(fields.name) },
				and(inCategory, keyed.unused),
			),
		],
		{ pet: pet.answerAt(db, pet.newest), inCategory, stored: keyed.stored },
		[
			insertWhere(db, inventory, { petId: pet.newest }, afterChange),
			eventRow(ctx, "pet.created", pet, pet.newest),
			...keyed.record,
		],
	);
	if (probe.written && probe.pet) return { pet: probe.pet, replayed: false };
	if (probe.stored) return { pet: keyed.replay(probe.stored), replayed: true };
	throw unknownCategory(fields.categoryId);
};

/**
 * Applies the changes only if the pet exists, still has an `If-Match` ETag (when given) and any new category
 * exists. A new status also moves the pet's inventory item, which records its own event.
 */
export const updatePet = async (ctx: WriteContext, id: number, changes: PetPatch) => {
	const { db, ifMatch } = ctx;
	const { categoryId, name, status } = changes;
	const inCategory = categoryId === undefined ? sql<boolean>`1` : categoryExists(db, categoryId);
	const allowed = and(eq(pets.id, id), pet.matches(ifMatch), inCategory);
	const probe = await runWrite(
		db,
		[
			// First, while the old status can still be compared: the item's event only when its status moves.
			...(status === undefined
				? []
				: [
						db
							.update(pets)
							.set({ status })
							.where(and(allowed, ne(pets.status, status))),
						eventRow(ctx, "inventory.updated", inventoryItem, id),
					]),
			db
				.update(pets)
				.set({ ...changes, nameKey: name && nameKey(name), version: sql`${pets.version} + 1` })
				.where(allowed),
		],
		{ pet: pet.answerAt(db, id), ...pet.state(db, id, ifMatch), inCategory },
		[eventRow(ctx, "pet.updated", pet, id)],
	);
	if (probe.written && probe.pet) return probe.pet;
	pet.mustBeCurrent(id, probe);
	throw unknownCategory(categoryId ?? 0);
};

/** Deletes the pet (and, by cascade, its inventory item) unless it changed or has open orders. */
export const deletePet = async (ctx: WriteContext, id: number) => {
	const { db, ifMatch } = ctx;
	const open = and(eq(orders.petId, id), eq(orders.complete, false));
	const openOrders = exists(db.select({ id: orders.id }).from(orders).where(open));
	const probe = await runWrite(
		db,
		[db.delete(pets).where(and(eq(pets.id, id), pet.matches(ifMatch), not(openOrders)))],
		{ ...pet.state(db, id, ifMatch), openOrders },
		[eventRow(ctx, "pet.deleted", pet.gone(id))],
	);
	if (probe.written) return;
	pet.mustBeCurrent(id, probe);
	throw new ApiError(
		"pet_has_open_orders",
		`Pet ${id} has open orders; complete or cancel them first.`,
	);
};
