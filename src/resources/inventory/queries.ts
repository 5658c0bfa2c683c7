import { and, eq, gt, inArray } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import {
	bump,
	etagOf,
	exists,
	matchesETag,
	probe,
	rowState,
} from "../../db/conditional";
import { inventory, pets } from "../../db/schema";
import type { InventoryItem } from "../../models/inventory";
import type { PetStatus } from "../../models/pet-status";

const item = {
	petId: inventory.petId,
	quantity: inventory.quantity,
	status: pets.status,
};
/** The item shows its stock and its pet's status, so either row's write changes the ETag. */
const itemETag = etagOf(inventory.version, pets.version);

export type TaggedInventoryItem = InventoryItem & { etag: string };

/** Inventory items with their pet's status: read through the join, never copied. */
const items = <T extends SelectedFields>(db: Db, fields: T) =>
	db
		.select(fields)
		.from(inventory)
		.innerJoin(pets, eq(pets.id, inventory.petId));

export type InventoryFilter = {
	after: number;
	limit: number;
	status?: PetStatus[];
};

/** The page of items after `filter.after`: a query builder, so that tests can read its plan. */
export const listInventory = (db: Db, filter: InventoryFilter) =>
	items(db, item)
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
): Promise<TaggedInventoryItem | undefined> =>
	items(db, { ...item, etag: itemETag })
		.where(eq(inventory.petId, petId))
		.get();

export type InventoryChange =
	| { item: TaggedInventoryItem }
	| { failure: "not_found" | "precondition_failed" };

/** Sets the stock unless the item changed since `If-Match`, and reads it back with its pet's status. */
export const setInventory = async (
	db: Db,
	petId: number,
	quantity: number,
	ifMatch: string[] | undefined,
): Promise<InventoryChange> => {
	// Correlated with the inventory row being read or written.
	const current = exists(
		pets,
		and(eq(pets.id, inventory.petId), matchesETag(itemETag, ifMatch)),
	);
	const [[state], written, [read]] = await db.batch([
		probe(db, {
			...rowState(inventory, eq(inventory.petId, petId), current),
		}),
		db
			.update(inventory)
			.set({ quantity, version: bump(inventory.version) })
			.where(and(eq(inventory.petId, petId), current))
			.returning({ petId: inventory.petId }),
		items(db, { ...item, etag: itemETag }).where(eq(inventory.petId, petId)),
	]);
	if (written.length > 0 && read) return { item: read };
	return { failure: state.found ? "precondition_failed" : "not_found" };
};
