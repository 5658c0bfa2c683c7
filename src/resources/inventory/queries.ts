import { and, eq, gt, sql } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import {
	bump,
	etagOf,
	exists,
	foundOr,
	matchesETag,
	probe,
	rowState,
	unchanged,
} from "../../db/conditional";
import { inventory, pets } from "../../db/schema";
import { filterWalks, mergeWalks } from "../../db/walks";
import { recordEvent } from "../../events/record";
import { ApiError } from "../../http/errors";
import type { Page } from "../../http/pagination";
import { byPetId, type InventoryItem } from "../../models/inventory";
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

const itemNotFound = (petId: number) =>
	new ApiError("not_found", `Pet ${petId} has no inventory item.`);

export type InventoryFilter = Page & { status?: PetStatus[] };

/**
 * The queries that read the page of items after `filter.after`, each in id order (see {@link filterWalks}), as
 * builders so that tests can read their plans. They walk pets, whose `(status, id)` index orders the page.
 */
export const inventoryWalks = (db: Db, filter: InventoryFilter) =>
	filterWalks(filter.status, (status) =>
		items(db, item)
			.where(and(gt(pets.id, filter.after), status && eq(pets.status, status)))
			.orderBy(pets.id)
			.limit(filter.limit + 1),
	);

/** The page of items after `filter.after`, and the next one's first if there is one. */
export const listInventory = (
	db: Db,
	filter: InventoryFilter,
): Promise<InventoryItem[]> =>
	mergeWalks(db, inventoryWalks(db, filter), filter.limit + 1, byPetId);

export const getInventoryItem = (
	db: Db,
	petId: number,
): Promise<TaggedInventoryItem> =>
	foundOr(
		items(db, { ...item, etag: itemETag })
			.where(eq(inventory.petId, petId))
			.get(),
		() => itemNotFound(petId),
	);

/** Sets the stock unless the item changed since `If-Match`, and reads it back with its pet's status. */
export const setInventory = async (
	db: Db,
	petId: number,
	quantity: number,
	ifMatch: string[] | undefined,
	now: number,
): Promise<TaggedInventoryItem> => {
	// Correlated with the inventory row being read or written.
	const current = exists(
		pets,
		and(eq(pets.id, inventory.petId), matchesETag(itemETag, ifMatch)),
	);
	const [[state], written, , [read]] = await db.batch([
		probe(db, rowState(inventory, eq(inventory.petId, petId), current)),
		db
			.update(inventory)
			.set({ quantity, version: bump(inventory.version) })
			.where(and(eq(inventory.petId, petId), current))
			.returning({ petId: inventory.petId }),
		recordEvent(db, {
			type: "inventory.updated",
			subject: sql`${`/store/inventory/${petId}`}`,
			data: sql`(SELECT json_object('petId', ${inventory.petId}, 'quantity', ${inventory.quantity}, 'status', ${pets.status}) FROM ${inventory} JOIN ${pets} ON ${pets.id} = ${inventory.petId} WHERE ${inventory.petId} = ${petId})`,
			now,
		}),
		items(db, { ...item, etag: itemETag }).where(eq(inventory.petId, petId)),
	]);
	if (written.length > 0 && read) return read;
	throw unchanged(state, itemNotFound(petId));
};
