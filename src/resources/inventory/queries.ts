import { and, eq, gt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { inventoryItem as item } from "../../db/resources";
import { pets } from "../../db/schema";
import { walkEach } from "../../db/walks";
import { changeOne, type WriteContext } from "../../db/write";
import type { Page } from "../../http/pagination";
import { byPetId, type InventoryItem } from "../../models/inventory";
import type { PetStatus } from "../../models/pet-status";

type InventoryFilter = Page & { status?: PetStatus[] };

/** The page of items after `filter.after`, and the next one's first if there is one: a walk per status. */
export const listInventory = async (db: Db, filter: InventoryFilter): Promise<InventoryItem[]> => {
	const { rows } = await walkEach(
		db,
		filter.status,
		(status) =>
			item
				.select(db, { answer: item.answer() })
				.where(and(gt(pets.id, filter.after), status && eq(pets.status, status)))
				.orderBy(pets.id)
				.limit(filter.limit + 1),
		filter.limit + 1,
		({ answer }) => byPetId(answer),
	);
	return rows.map(({ answer }) => answer);
};

/** Sets the stock unless the item changed since `If-Match`, with its event. */
export const setInventory = (ctx: WriteContext, petId: number, quantity: number) =>
	changeOne(ctx, item, petId, {
		steps: ({ update, event }) => [update({ quantity }), event("inventory.updated")],
	});
