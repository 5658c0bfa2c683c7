import { and, eq, gt, ne, not } from "drizzle-orm";
import type { Db } from "../../db/client";
import { petsNamed } from "../../db/pet-names";
import { inventoryItem, pet } from "../../db/resources";
import { categories, inventory, orders, pets } from "../../db/schema";
import { walkEach } from "../../db/walks";
import {
	changeOne,
	createOne,
	exists,
	type Refusal,
	removeOne,
	step,
	type WriteContext,
} from "../../db/write";
import type { Page, Window } from "../../http/pagination";
import { ApiError } from "../../models/error";
import type { NewPet, Pet, PetPatch } from "../../models/pet";
import type { PetStatus } from "../../models/pet-status";

type PetFilter = Page & { status?: PetStatus[]; categoryId?: number; name?: string };

/** The page of pets after `filter.after`, and the next one's first if any; a name filter: see {@link petsNamed}. */
export const listPets = async (db: Db, filter: PetFilter): Promise<Window<Pet>> => {
	const { query, id, holds, windowEnd } = petsNamed(db, filter.name, filter.after);
	const { rows, alongside } = await walkEach(
		db,
		filter.status,
		(status) =>
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
		filter.limit + 1,
		({ answer }) => answer.id,
		windowEnd,
	);
	return { rows: rows.map(({ answer }) => answer), through: alongside[0]?.through };
};

const inCategory = (categoryId: number): Refusal => [
	not(exists(categories, eq(categories.id, categoryId))),
	() => new ApiError("unknown_category", `Category ${categoryId} does not exist.`),
];

/** Creates the pet, only if its category exists, with its empty inventory item and its event, in one batch. */
export const createPet = (ctx: WriteContext, fields: NewPet) =>
	createOne(ctx, pet, {
		refuse: [inCategory(fields.categoryId)],
		steps: ({ insert, alongside, event }) => [
			insert(fields),
			alongside(inventory, { petId: pet.newest }),
			event("pet.created"),
		],
	});

/**
 * Applies the changes only if the pet exists, still has an `If-Match` ETag (when given) and any new category
 * exists. A new status also moves the pet's inventory item, which records its own event.
 */
export const updatePet = (ctx: WriteContext, id: number, changes: PetPatch) =>
	changeOne(ctx, pet, id, {
		refuse: changes.categoryId === undefined ? [] : [inCategory(changes.categoryId)],
		steps: ({ allowed, update, event }) => [
			// First, while the old status can still be compared: the item's event only when its status moves.
			...(changes.status === undefined
				? []
				: [
						step(
							"status",
							ctx.db
								.update(pets)
								.set({ status: changes.status })
								.where(and(allowed, ne(pets.status, changes.status))),
						),
						event("inventory.updated", inventoryItem, id),
					]),
			update(changes),
			event("pet.updated"),
		],
	});

/** Deletes the pet (and, by cascade, its inventory item) unless it changed or has open orders. */
export const deletePet = (ctx: WriteContext, id: number) =>
	removeOne(ctx, pet, id, {
		refuse: [
			[
				exists(orders, and(eq(orders.petId, id), eq(orders.complete, false))),
				() =>
					new ApiError(
						"pet_has_open_orders",
						`Pet ${id} has open orders; complete or cancel them first.`,
					),
			],
		],
		steps: ({ remove, event }) => [remove(), event("pet.deleted")],
	});
