import { and, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { inventory, pets } from "../../db/schema";
import type { InventoryItem } from "../../models/inventory";
import type { PetStatus } from "../../models/pet-status";

/** An inventory item with its pet's status: read through the join, never copied. */
const items = (db: Db) =>
	db
		.select({
			petId: inventory.petId,
			quantity: inventory.quantity,
			status: pets.status,
		})
		.from(inventory)
		.innerJoin(pets, eq(pets.id, inventory.petId));

export type InventoryFilter = {
	after: number;
	limit: number;
	status?: PetStatus[];
};

export const listInventory = (
	db: Db,
	filter: InventoryFilter,
): Promise<InventoryItem[]> =>
	items(db)
		.where(
			and(
				gt(inventory.petId, filter.after),
				filter.status && inArray(pets.status, filter.status),
			),
		)
		.orderBy(inventory.petId)
		.limit(filter.limit + 1);

export const getInventoryItem = (
	db: Db,
	petId: number,
): Promise<InventoryItem | undefined> =>
	items(db).where(eq(inventory.petId, petId)).get();

/** Sets the stock and reads the item back with its pet's status, in one batch. */
export const setInventory = async (
	db: Db,
	petId: number,
	quantity: number,
): Promise<InventoryItem | undefined> => {
	const [, [item]] = await db.batch([
		db.update(inventory).set({ quantity }).where(eq(inventory.petId, petId)),
		items(db).where(eq(inventory.petId, petId)),
	]);
	return item;
};
