import { and, eq, gt, type Placeholder, type SQL, sql } from "drizzle-orm";
import { chain, write } from "../../db/batch";
import type { Db } from "../../db/client";
import {
	autoId,
	bump,
	exists,
	matchesETag,
	oneRow,
	probe,
	rowState,
	whyUnchanged,
} from "../../db/conditional";
import { type Moment, recordDeletion, recordEvent } from "../../db/outbox";
import type { Slot } from "../../db/prepared";
import { inventoryItem, order } from "../../db/resources";
import { inventory, orders, pets } from "../../db/schema";
import { ApiError } from "../../http/errors";
import {
	createdOrStored,
	type Keyed,
	keyedCreate,
} from "../../http/idempotency";
import { found, refusal } from "../../http/outcomes";
import type { Page } from "../../http/pagination";
import { limits } from "../../models/limits";
import type { Order, OrderPatch } from "../../models/order";

type TaggedOrder = Order & { etag: string };

const orderNotFound = (id: number) =>
	new ApiError("not_found", `Order ${id} does not exist.`);
const orderComplete = (id: number) =>
	new ApiError("order_complete", `Order ${id} is complete and final.`);

type OrderFilter = Page & {
	petId?: number;
	complete?: boolean;
};

/** The page of orders after `filter.after`, and the next one's first if there is one. */
export const listOrders = (db: Db, filter: OrderFilter): Promise<Order[]> =>
	order
		.select(db, order.projection)
		.where(
			and(
				gt(orders.id, filter.after),
				filter.petId === undefined ? undefined : eq(orders.petId, filter.petId),
				filter.complete === undefined
					? undefined
					: eq(orders.complete, filter.complete),
			),
		)
		.orderBy(orders.id)
		.limit(filter.limit + 1);

export const getOrder = (db: Db, id: number): Promise<TaggedOrder> =>
	found(order.find(db, id), () => orderNotFound(id));

type Placement = { petId: number; quantity: number; shipDate: string };

/** The event of a change to the pet's stock, as a link of the chain that changed it. */
const stockEvent =
	(db: Db, petId: number | SQL | Placeholder, now: Moment) => (changed: SQL) =>
		recordEvent(db, {
			type: "inventory.updated",
			resource: inventoryItem,
			where: eq(inventory.petId, petId),
			changed,
			now,
		});

/** An order's values, by name: see {@link placing}. */
type PlacementValues = Placement & { createdAt: string };

/**
 * Places an order in one atomic batch: the stock is taken only while it covers the quantity, the pet is
 * available and the idempotency key (if any) is unused; the order, its events and its idempotency record follow
 * only when the stock was taken. A probe first says why nothing happened.
 */
const placing = keyedCreate((db, $: Slot<PlacementValues>, key) => {
	const petAvailable = exists(
		pets,
		and(eq(pets.id, $("petId")), eq(pets.status, "available")),
	);
	return {
		forgetExpired: key.forgetExpired,
		guard: probe(db, {
			pet: exists(pets, eq(pets.id, $("petId"))),
			petAvailable,
		}),
		stored: key.stored,
		placed: chain({
			stock: db
				.update(inventory)
				.set({
					quantity: sql`${inventory.quantity} - ${$("quantity")}`,
					version: bump(inventory.version),
				})
				.where(
					and(
						eq(inventory.petId, $("petId")),
						sql`${inventory.quantity} >= ${$("quantity")}`,
						petAvailable,
						key.unused,
					),
				),
			order: (changed) =>
				db
					.insert(orders)
					.select(
						db
							.select({
								id: autoId,
								petId: sql`${$("petId")}`.as("pet_id"),
								quantity: sql`${$("quantity")}`.as("quantity"),
								shipDate: sql`${$("shipDate")}`.as("ship_date"),
								complete: sql`0`.as("complete"),
								version: sql`1`.as("version"),
							})
							.from(oneRow)
							.where(changed),
					)
					.returning(order.tagged),
			orderEvent: (changed) =>
				recordEvent(db, {
					type: "order.placed",
					resource: order,
					where: eq(orders.id, order.newest),
					changed,
					now: $("createdAt"),
				}),
			stockEvent: stockEvent(db, $("petId"), $("createdAt")),
			remember: key.remember(order),
		}),
	};
});

/** Places the order (see {@link placing}); answers it, or the response stored for its idempotency key. */
export const placeOrder = async (
	db: Db,
	placement: Placement,
	keyed: Keyed | undefined,
	now: number,
) => {
	const { petId, quantity } = placement;
	const { guard, stored, placed } = await placing(
		db,
		{
			...placement,
			createdAt: new Date(now).toISOString(),
		},
		keyed,
	);
	const outcome = createdOrStored(placed.order, stored);
	if (outcome) return outcome;
	const [found] = guard;
	if (!found.pet) {
		throw new ApiError("unknown_pet", `Pet ${petId} does not exist.`);
	}
	if (!found.petAvailable) {
		throw new ApiError("pet_not_available", `Pet ${petId} is not available.`);
	}
	throw new ApiError(
		"insufficient_stock",
		`Pet ${petId} has fewer than ${quantity} in stock.`,
	);
};

/**
 * Applies the patch to an open order that still has an `If-Match` ETag (when given). A complete order is
 * final: only `complete: true` (a no-op) is accepted.
 */
export const updateOrder = async (
	db: Db,
	id: number,
	patch: OrderPatch,
	ifMatch: string[] | undefined,
	now: number,
): Promise<TaggedOrder> => {
	const current = matchesETag(order.etag, ifMatch);
	const { guard, updated, unchanged } = await write(db, {
		guard: probe(db, rowState(orders, eq(orders.id, id), current)),
		// Only an open order changes; completing a complete one again is a no-op, with no write and no event.
		updated: chain({
			order: db
				.update(orders)
				.set({ ...patch, version: bump(orders.version) })
				.where(and(eq(orders.id, id), current, eq(orders.complete, false)))
				.returning(order.tagged),
			event: (changed) =>
				recordEvent(db, {
					type: patch.complete ? "order.completed" : "order.updated",
					resource: order,
					where: eq(orders.id, id),
					changed,
					now,
				}),
		}),
		unchanged: order.select(db, order.tagged).where(eq(orders.id, id)),
	});
	const [row] = updated.order;
	if (row) return row;
	const [state] = guard;
	const [complete] = unchanged;
	const completeAgain =
		patch.complete === true &&
		patch.shipDate === undefined &&
		complete?.complete;
	if (state.found && state.current && completeAgain) return complete;
	throw refusal(whyUnchanged(state), orderNotFound(id), orderComplete(id));
};

/** Deletes an open order that still has an `If-Match` ETag and returns its quantity to stock, in one batch. */
export const cancelOrder = async (
	db: Db,
	id: number,
	ifMatch: string[] | undefined,
	now: number,
): Promise<void> => {
	const current = matchesETag(order.etag, ifMatch);
	const cancellable = and(
		eq(orders.id, id),
		eq(orders.complete, false),
		current,
	);
	const petOf = sql`(SELECT ${orders.petId} FROM ${orders} WHERE ${cancellable})`;
	const { guard, cancelled } = await write(db, {
		guard: probe(db, rowState(orders, eq(orders.id, id), current)),
		// The stock first, while the order still says how much comes back and to which pet.
		cancelled: chain({
			stock: db
				.update(inventory)
				.set({
					// Capped at the stock bound: stock set to the maximum meanwhile cannot overflow it.
					quantity: sql`min(${inventory.quantity} + (SELECT ${orders.quantity} FROM ${orders} WHERE ${cancellable}), ${limits.stock})`,
					version: bump(inventory.version),
				})
				.where(eq(inventory.petId, petOf)),
			stockEvent: stockEvent(db, petOf, now),
			order: (changed) =>
				db
					.delete(orders)
					.where(and(cancellable, changed))
					.returning({ id: orders.id }),
			orderEvent: (changed) =>
				recordDeletion(db, {
					type: "order.cancelled",
					resource: order,
					id,
					changed,
					now,
				}),
		}),
	});
	if (cancelled.order.length > 0) return;
	const [state] = guard;
	throw refusal(whyUnchanged(state), orderNotFound(id), orderComplete(id));
};
