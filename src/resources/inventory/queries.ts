import { and, eq, gt } from "drizzle-orm";
import { chain, write } from "../../db/batch";
import type { Db } from "../../db/client";
import {
	bump,
	exists,
	matchesETag,
	probe,
	rowState,
	whyUnchanged,
} from "../../db/conditional";
import { recordEvent } from "../../db/outbox";
import { inventoryItem as item } from "../../db/resources";
import { inventory, pets } from "../../db/schema";
import { filterWalks, mergeWalks } from "../../db/walks";
import { ApiError } from "../../http/errors";
import { found, refusal } from "../../http/outcomes";
import type { Page } from "../../http/pagination";
import { byPetId, type InventoryItem } from "../../models/inventory";
import type { PetStatus } from "../../models/pet-status";

type TaggedInventoryItem = InventoryItem & { etag: string };

const itemNotFound = (petId: number) =>
	new ApiError("not_found", `Pet ${petId} has no inventory item.`);

type InventoryFilter = Page & { status?: PetStatus[] };

/**
 * The page of items after `filter.after`, and the next one's first if there is one: a walk of pets per status
 * asked for (see {@link filterWalks}), whose `(status, id)` index orders the page.
 */
export const listInventory = (
	db: Db,
	filter: InventoryFilter,
): Promise<InventoryItem[]> =>
	mergeWalks(
		db,
		filterWalks(filter.status, (status) =>
			item
				.select(db, item.projection)
				.where(
					and(gt(pets.id, filter.after), status && eq(pets.status, status)),
				)
				.orderBy(pets.id)
				.limit(filter.limit + 1),
		),
		filter.limit + 1,
		byPetId,
	);

export const getInventoryItem = (
	db: Db,
	petId: number,
): Promise<TaggedInventoryItem> =>
	found(item.find(db, petId), () => itemNotFound(petId));

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
		and(eq(pets.id, inventory.petId), matchesETag(item.etag, ifMatch)),
	);
	const { guard, set, read } = await write(db, {
		guard: probe(db, rowState(inventory, eq(inventory.petId, petId), current)),
		set: chain({
			stock: db
				.update(inventory)
				.set({ quantity, version: bump(inventory.version) })
				.where(and(eq(inventory.petId, petId), current))
				.returning({ petId: inventory.petId }),
			event: (changed) =>
				recordEvent(db, {
					type: "inventory.updated",
					resource: item,
					where: eq(inventory.petId, petId),
					changed,
					now,
				}),
		}),
		read: item.select(db, item.tagged).where(eq(inventory.petId, petId)),
	});
	const [row] = read;
	if (set.stock.length > 0 && row) return row;
	const [state] = guard;
	throw refusal(whyUnchanged(state), itemNotFound(petId));
};
