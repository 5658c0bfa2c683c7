import { and, eq, gt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { inventoryItem as item } from "../../db/resources";
import { inventory, pets } from "../../db/schema";
import { walkEach } from "../../db/walks";
import { eventRow, runWrite, type WriteContext } from "../../db/write";
import type { Page } from "../../http/pagination";
import { byPetId, type InventoryItem } from "../../models/inventory";
import type { PetStatus } from "../../models/pet-status";

type InventoryFilter = Page & { status?: PetStatus[] };

/** The page of items after `filter.after`, and the next one's first if there is one: a walk per status. */
export const listInventory = async (db: Db, filter: InventoryFilter): Promise<InventoryItem[]> => {
	const { rows } = await walkEach(db, {
		values: filter.status,
		walk: (status) =>
			item
				.select(db, { answer: item.answer() })
				.where(and(gt(pets.id, filter.after), status && eq(pets.status, status)))
				.orderBy(pets.id)
				.limit(filter.limit + 1),
		size: filter.limit + 1,
		id: ({ answer }) => byPetId(answer),
	});
	return rows.map(({ answer }) => answer);
};

/** Sets pet `petId`'s stock to `quantity` where `condition` holds, bumping the item's version. */
export const setStock = (db: Db, petId: number | SQL, quantity: number | SQL, condition?: SQL) =>
	db
		.update(inventory)
		.set({ quantity, version: sql`${inventory.version} + 1` })
		.where(and(eq(inventory.petId, petId), condition));

/** Sets the stock unless the item changed since `If-Match`, with its event. */
export const setInventory = async (ctx: WriteContext, petId: number, quantity: number) => {
	const { db, ifMatch } = ctx;
	const probe = await runWrite(db, {
		write: setStock(db, petId, quantity, item.has(db, petId, item.matches(ifMatch))),
		after: [eventRow(ctx, "inventory.updated", item, petId)],
		probe: { item: item.answerAt(db, petId), ...item.state(db, petId, ifMatch) },
	});
	if (probe.written && probe.item) return probe.item;
	item.mustBeCurrent(petId, probe);
	throw item.unexplained(petId);
};
