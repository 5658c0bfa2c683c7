import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { inventoryItem, order, pet } from "../../db/resources";
import { inventory, orders, pets } from "../../db/schema";
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
import type { NewOrder, Order, OrderPatch } from "../../models/order";
import { setStock } from "../inventory/queries";

type OrderFilter = Page & { petId?: number; complete?: boolean };

/** The page of orders after `filter.after` for the filter, and the next one's first if there is one. */
export const listOrders = (db: Db, filter: OrderFilter): Promise<Order[]> =>
	order.page(
		db,
		filter,
		and(
			filter.petId === undefined ? undefined : eq(orders.petId, filter.petId),
			filter.complete === undefined ? undefined : eq(orders.complete, filter.complete),
		),
	);

/**
 * Places an order in one atomic batch: the order, only while its pet exists, is for sale and has the stock (and its
 * `Idempotency-Key` is unused), then the stock it takes and its events. The ship date defaults to now.
 */
export const placeOrder = async (ctx: WriteContext, placement: NewOrder) => {
	const { db, now } = ctx;
	const { petId, quantity } = placement;
	const petExists = pet.has(db, petId);
	const forSale = pet.has(db, petId, eq(pets.status, "available"));
	const inStock = inventoryItem.has(db, petId, gte(inventory.quantity, quantity));
	const keyed = idempotencyRecord(ctx, order);
	const placed = { ...placement, shipDate: placement.shipDate ?? new Date(now).toISOString() };
	const probe = await runWrite(db, {
		before: keyed.forget,
		write: insertWhere(db, orders, placed, and(petExists, forSale, inStock, keyed.unused)),
		after: [
			setStock(db, petId, sql`${inventory.quantity} - ${quantity}`, afterChange),
			eventRow(ctx, "order.placed", order, order.newest),
			eventRow(ctx, "inventory.updated", inventoryItem, petId),
			...keyed.record,
		],
		probe: {
			order: order.answerAt(db, order.newest),
			petExists,
			forSale,
			inStock,
			stored: keyed.stored,
		},
	});
	if (probe.written && probe.order) return { order: probe.order, replayed: false };
	if (probe.stored) return { order: keyed.replay(probe.stored), replayed: true };
	if (!probe.petExists) throw new ApiError("unknown_pet", `Pet ${petId} does not exist.`);
	if (!probe.forSale) throw new ApiError("pet_not_available", `Pet ${petId} is not available.`);
	if (!probe.inStock) {
		throw new ApiError("insufficient_stock", `Pet ${petId} has fewer than ${quantity} in stock.`);
	}
	throw order.unexplained();
};

const final = (id: number) => new ApiError("order_complete", `Order ${id} is complete and final.`);

/**
 * Applies the patch to an open order that still has an `If-Match` ETag (when given). A complete order is final:
 * completing it again is a no-op, answered as it stands, with no write and no event; any other change is refused.
 */
export const updateOrder = async (ctx: WriteContext, id: number, patch: OrderPatch) => {
	const { db, ifMatch } = ctx;
	const open = eq(orders.complete, false);
	const probe = await runWrite(db, {
		write: db
			.update(orders)
			.set({ ...patch, version: sql`${orders.version} + 1` })
			.where(and(eq(orders.id, id), order.matches(ifMatch), open)),
		after: [
			eventRow(ctx, patch.complete === true ? "order.completed" : "order.updated", order, id),
		],
		probe: {
			order: order.answerAt(db, id),
			...order.state(db, id, ifMatch),
			open: order.has(db, id, open),
		},
	});
	if (probe.written && probe.order) return probe.order;
	order.mustBeCurrent(id, probe);
	if (probe.open || !probe.order) throw order.unexplained(id);
	if (patch.complete === true && patch.shipDate === undefined) return probe.order;
	throw final(id);
};

/** Deletes an open order that still has an `If-Match` ETag and returns its quantity to stock, in one batch. */
export const cancelOrder = async (ctx: WriteContext, id: number) => {
	const { db, ifMatch } = ctx;
	const open = eq(orders.complete, false);
	const cancelled = and(eq(orders.id, id), order.matches(ifMatch), open);
	/** A column of the order being cancelled, read before it is gone. */
	const column = (field: "petId" | "quantity") =>
		sql<number>`${db
			.select({ [field]: orders[field] })
			.from(orders)
			.where(cancelled)}`;
	const probe = await runWrite(db, {
		// The stock first, while the order still says how much comes back and to which pet (under the write's
		// own conditions); capped at the stock bound, which stock set to the maximum meanwhile could pass.
		before: [
			setStock(
				db,
				column("petId"),
				sql`min(${inventory.quantity} + ${column("quantity")}, ${limits.stock})`,
			),
			eventRow(ctx, "inventory.updated", inventoryItem, column("petId")),
		],
		write: db.delete(orders).where(cancelled),
		after: [eventRow(ctx, "order.cancelled", order.gone(id))],
		probe: { ...order.state(db, id, ifMatch), open: order.has(db, id, open) },
	});
	if (probe.written) return;
	order.mustBeCurrent(id, probe);
	if (probe.open) throw order.unexplained(id);
	throw final(id);
};
