import { and, eq, gt, ne, not } from "drizzle-orm";
import type { Db } from "../../db/client";
import { withNameKey } from "../../db/name-key";
import { petsNamed } from "../../db/pet-names";
import { inventoryItem, pet } from "../../db/resources";
import { categories, inventory, orders, pets } from "../../db/schema";
import { walkEach } from "../../db/walks";
import { declareChange, declareCreate, exists, type WriteContext } from "../../db/write";
import type { Page, Window } from "../../http/pagination";
import { ApiError } from "../../models/error";
import type { NewPet, Pet, PetPatch } from "../../models/pet";
import type { PetStatus } from "../../models/pet-status";

const unknownCategory = (id: number) =>
	new ApiError("unknown_category", `Category ${id} does not exist.`);

type PetFilter = Page & { status?: PetStatus[]; categoryId?: number; name?: string };

/**
 * The page of pets after `filter.after`, and the next one's first if there is one: a walk in id order per status;
 * a name filter looks only so far (see {@link petsNamed}), and says where the next page starts.
 */
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

const creating = declareCreate(pet, ({ row }) => ({
	when: exists(categories, eq(categories.id, row.categoryId)),
	alongside: { into: inventory, values: { petId: pet.newest } },
	events: ["pet.created"],
	refused: ({ categoryId }) => unknownCategory(categoryId),
}));

/**
 * Creates the pet, only if its category exists, with its empty inventory item and its event (and, under an
 * `Idempotency-Key`, its record), in one batch.
 */
export const createPet = (ctx: WriteContext, fields: NewPet) => creating(ctx, withNameKey(fields));

const updating = declareChange(pet, ({ row, id, db, carries }) => ({
	refuse: carries("categoryId")
		? {
				when: not(exists(categories, eq(categories.id, row.categoryId))),
				error: ({ categoryId }) => unknownCategory(categoryId as number),
			}
		: undefined,
	// First, while the old status can still be compared: the item's event only when its status moves.
	first: carries("status")
		? (allowed) => ({
				change: db
					.update(pets)
					.set({ status: row.status })
					.where(and(allowed, ne(pets.status, row.status))),
				event: { type: "inventory.updated", resource: inventoryItem, key: id },
			})
		: undefined,
	event: "pet.updated",
}));

/**
 * Applies the changes only if the pet exists, still has an `If-Match` ETag (when given) and any new category
 * exists. A new status also moves the pet's inventory item, which records its own event.
 */
export const updatePet = (ctx: WriteContext, id: number, changes: PetPatch) =>
	updating(ctx, id, { set: withNameKey(changes) });

/** Deletes the pet (and, by cascade, its inventory item) unless it changed or has open orders. */
export const deletePet = declareChange(pet, ({ id }) => ({
	delete: true,
	refuse: {
		when: exists(orders, and(eq(orders.petId, id), eq(orders.complete, false))),
		error: ({ id }) =>
			new ApiError(
				"pet_has_open_orders",
				`Pet ${id} has open orders; complete or cancel them first.`,
			),
	},
	event: "pet.deleted",
}));
