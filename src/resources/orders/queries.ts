import { and, type Column, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { inventoryItem, order } from "../../db/resources";
import { inventory, orders, pets } from "../../db/schema";
import { declareChange, declareCreate, exists, type WriteContext } from "../../db/write";
import type { Page } from "../../http/pagination";
import { ApiError } from "../../models/error";
import { limits } from "../../models/limits";
import type { NewOrder, Order, OrderPatch } from "../../models/order";

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

/** Whether the pet `petId` is for sale. */
const available = (petId: SQL) =>
	exists(pets, and(eq(pets.id, petId), eq(pets.status, "available")));

const placing = declareCreate<typeof order, "pet" | "petAvailable">(order, ({ row, db }) => ({
	before: (allowed) =>
		db
			.update(inventory)
			.set({
				quantity: sql`${inventory.quantity} - ${row.quantity}`,
				version: sql`${inventory.version} + 1`,
			})
			.where(
				and(
					eq(inventory.petId, row.petId),
					sql`${inventory.quantity} >= ${row.quantity}`,
					available(row.petId),
					allowed,
				),
			),
	events: ["order.placed", { type: "inventory.updated", resource: inventoryItem, key: row.petId }],
	probe: { pet: exists(pets, eq(pets.id, row.petId)), petAvailable: available(row.petId) },
	refused: ({ petId, quantity }, why) =>
		!why.pet
			? new ApiError("unknown_pet", `Pet ${petId} does not exist.`)
			: !why.petAvailable
				? new ApiError("pet_not_available", `Pet ${petId} is not available.`)
				: new ApiError("insufficient_stock", `Pet ${petId} has fewer than ${quantity} in stock.`),
}));

/**
 * Places an order in one atomic batch: the stock is taken only while it covers the quantity and the pet is
 * available (and the idempotency key, if any, is unused); the order and its events follow only when the stock was
 * taken. A probe in the same batch says why nothing happened. A ship date defaults to the placement's time.
 */
export const placeOrder = (ctx: WriteContext, placement: NewOrder) =>
	placing(ctx, { ...placement, shipDate: placement.shipDate ?? new Date(ctx.now).toISOString() });

const orderComplete = ({ id }: { id: number }) =>
	new ApiError("order_complete", `Order ${id} is complete and final.`);

const updating = declareChange<typeof order, { completing: boolean }>(
	order,
	({ carries, flags }) => ({
		refuse: { when: eq(orders.complete, true), error: orderComplete },
		unchangedWhen: flags.completing && !carries("shipDate") ? eq(orders.complete, true) : undefined,
		event: flags.completing ? "order.completed" : "order.updated",
	}),
);

/**
 * Applies the patch to an open order that still has an `If-Match` ETag (when given). A complete order is final:
 * completing it again is a no-op, with no write and no event; any other change is refused.
 */
export const updateOrder = (ctx: WriteContext, id: number, patch: OrderPatch) =>
	updating(ctx, id, { set: patch, flags: { completing: patch.complete === true } });

/** Deletes an open order that still has an `If-Match` ETag and returns its quantity to stock, in one batch. */
export const cancelOrder = declareChange(order, ({ db }) => ({
	delete: true,
	refuse: { when: eq(orders.complete, true), error: orderComplete },
	// The stock first, while the order still says how much comes back and to which pet.
	first: (allowed) => {
		const cancelled = (column: Column) => sql`(SELECT ${column} FROM ${orders} WHERE ${allowed})`;
		const petId = cancelled(orders.petId);
		return {
			change: db
				.update(inventory)
				.set({
					// Capped at the stock bound: stock set to the maximum meanwhile cannot overflow it.
					quantity: sql`min(${inventory.quantity} + ${cancelled(orders.quantity)}, ${limits.stock})`,
					version: sql`${inventory.version} + 1`,
				})
				.where(eq(inventory.petId, petId)),
			event: { type: "inventory.updated", resource: inventoryItem, key: petId },
		};
	},
	event: "order.cancelled",
}));
