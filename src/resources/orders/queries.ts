import { and, type Column, eq, gte, not, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { inventoryItem, order } from "../../db/resources";
import { inventory, orders, pets } from "../../db/schema";
import {
	chained,
	changed,
	changeOne,
	createOne,
	exists,
	type Refusal,
	removeOne,
	step,
	type WriteContext,
} from "../../db/write";
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

/**
 * Places an order in one atomic batch: the order, only while its pet exists, is for sale and has the stock (and its
 * `Idempotency-Key` is unused), then the stock it takes and its events. The ship date defaults to now.
 */
export const placeOrder = (ctx: WriteContext, placement: NewOrder) => {
	const { petId, quantity } = placement;
	const forSale = and(eq(pets.id, petId), eq(pets.status, "available"));
	const inStock = and(eq(inventory.petId, petId), gte(inventory.quantity, quantity));
	return createOne(ctx, order, {
		refuse: [
			[
				not(exists(pets, eq(pets.id, petId))),
				() => new ApiError("unknown_pet", `Pet ${petId} does not exist.`),
			],
			[
				not(exists(pets, forSale)),
				() => new ApiError("pet_not_available", `Pet ${petId} is not available.`),
			],
			[
				not(exists(inventory, inStock)),
				() =>
					new ApiError("insufficient_stock", `Pet ${petId} has fewer than ${quantity} in stock.`),
			],
		],
		steps: ({ insert, event }) => [
			insert({ ...placement, shipDate: placement.shipDate ?? new Date(ctx.now).toISOString() }),
			// After the order, whose conditions read the stock before it is taken.
			chained(
				"stock",
				ctx.db
					.update(inventory)
					.set({
						quantity: sql`${inventory.quantity} - ${quantity}`,
						version: sql`${inventory.version} + 1`,
					})
					.where(and(eq(inventory.petId, petId), changed)),
			),
			event("order.placed"),
			event("inventory.updated", inventoryItem, petId),
		],
	});
};

/** A complete order is final: `order_complete`, naming it. */
const final = (id: number): Refusal => [
	eq(orders.complete, true),
	() => new ApiError("order_complete", `Order ${id} is complete and final.`),
];

/**
 * Applies the patch to an open order that still has an `If-Match` ETag (when given). A complete order is final:
 * completing it again is a no-op, answered as it stands, with no write and no event; any other change is refused.
 */
export const updateOrder = async (ctx: WriteContext, id: number, patch: OrderPatch) => {
	const completing = patch.complete === true;
	try {
		return await changeOne(ctx, order, id, {
			refuse: [final(id)],
			steps: ({ update, event }) => [
				update(patch),
				event(completing ? "order.completed" : "order.updated"),
			],
		});
	} catch (error) {
		const again = completing && patch.shipDate === undefined;
		if (again && error instanceof ApiError && error.code === "order_complete") {
			return order.find(ctx.db, id);
		}
		throw error;
	}
};

/** Deletes an open order that still has an `If-Match` ETag and returns its quantity to stock, in one batch. */
export const cancelOrder = (ctx: WriteContext, id: number) =>
	removeOne(ctx, order, id, {
		refuse: [final(id)],
		steps: ({ allowed, remove, event }) => {
			/** A column of the order being cancelled, read before it is gone. */
			const cancelled = (column: Column) => sql`(SELECT ${column} FROM ${orders} WHERE ${allowed})`;
			return [
				// The stock first, while the order still says how much comes back and to which pet; capped at the
				// stock bound, which stock set to the maximum meanwhile could pass.
				step(
					"stock",
					ctx.db
						.update(inventory)
						.set({
							quantity: sql`min(${inventory.quantity} + ${cancelled(orders.quantity)}, ${limits.stock})`,
							version: sql`${inventory.version} + 1`,
						})
						.where(eq(inventory.petId, cancelled(orders.petId))),
				),
				event("inventory.updated", inventoryItem, cancelled(orders.petId)),
				remove(),
				event("order.cancelled"),
			];
		},
	});
