import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
	autoId,
	bump,
	etagOf,
	exists,
	foundOr,
	matchesETag,
	oneRow,
	probe,
	rowState,
	unchanged,
} from "../../db/conditional";
import { events, inventory, orders, pets } from "../../db/schema";
import { idOnly, recordEvent } from "../../events/record";
import { ApiError } from "../../http/errors";
import {
	idempotencyStatements,
	type Keyed,
	type StoredResponse,
} from "../../http/idempotency";
import type { Page } from "../../http/pagination";
import { limits } from "../../models/limits";
import type { Order, OrderPatch } from "../../models/order";

const order = {
	id: orders.id,
	petId: orders.petId,
	quantity: orders.quantity,
	shipDate: orders.shipDate,
	complete: orders.complete,
};
const orderETag = etagOf(orders.version);
const orderWithETag = { ...order, etag: orderETag };

export type TaggedOrder = Order & { etag: string };

const orderNotFound = (id: number) =>
	new ApiError("not_found", `Order ${id} does not exist.`);
const orderComplete = (id: number) =>
	new ApiError("order_complete", `Order ${id} is complete and final.`);

/** An order as the API answers it, as JSON built in SQL: what its events (and idempotent replays) carry. */
const orderJson = sql`json_object('id', ${orders.id}, 'petId', ${orders.petId}, 'quantity', ${orders.quantity}, 'shipDate', ${orders.shipDate}, 'complete', json(CASE WHEN ${orders.complete} THEN 'true' ELSE 'false' END))`;
const orderPath = sql`'/store/orders/' || ${orders.id}`;

export type OrderFilter = Page & {
	petId?: number;
	complete?: boolean;
};

/** The page of orders after `filter.after`: a query builder, so that tests can read its plan. */
export const listOrders = (db: Db, filter: OrderFilter) =>
	db
		.select(order)
		.from(orders)
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
	foundOr(
		db.select(orderWithETag).from(orders).where(eq(orders.id, id)).get(),
		() => orderNotFound(id),
	);

export type Placement = { petId: number; quantity: number; shipDate: string };

/**
 * Places an order in one atomic batch: the stock is taken only while it covers the quantity, the pet is
 * available and the idempotency key (if any) is unused; the order and its idempotency record are stored only
 * when the stock was taken. A probe read first says why nothing happened. Answers the placed order, or the
 * response stored for the key.
 */
export const placeOrder = async (
	db: Db,
	{ petId, quantity, shipDate }: Placement,
	keyed: Keyed | undefined,
	now: number,
): Promise<{ placed: TaggedOrder } | { stored: StoredResponse }> => {
	const petAvailable = exists(
		pets,
		and(eq(pets.id, petId), eq(pets.status, "available")),
	);
	const why = probe(db, {
		pet: exists(pets, eq(pets.id, petId)),
		petAvailable,
	});
	const idempotency = keyed && idempotencyStatements(db, keyed);
	const take = db
		.update(inventory)
		.set({
			quantity: sql`${inventory.quantity} - ${quantity}`,
			version: bump(inventory.version),
		})
		.where(
			and(
				eq(inventory.petId, petId),
				sql`${inventory.quantity} >= ${quantity}`,
				petAvailable,
				idempotency?.unused,
			),
		);
	// changes() is the stock update's: the order exists only if the stock was taken.
	const place = db
		.insert(orders)
		.select(
			db
				.select({
					id: autoId,
					petId: sql`${petId}`.as("pet_id"),
					quantity: sql`${quantity}`.as("quantity"),
					shipDate: sql`${shipDate}`.as("ship_date"),
					complete: sql`0`.as("complete"),
					version: sql`1`.as("version"),
				})
				.from(oneRow)
				.where(sql`changes() = 1`),
		)
		.returning(orderWithETag);

	const placedEvent = recordEvent(db, {
		type: "order.placed",
		subject: orderPath,
		data: orderJson,
		source: orders,
		where: eq(orders.id, sql`last_insert_rowid()`),
		now,
	});

	let found: { pet: boolean; petAvailable: boolean };
	let placed: TaggedOrder | undefined;
	if (!idempotency) {
		[[found], , [placed]] = await db.batch([why, take, place, placedEvent]);
	} else {
		let stored: StoredResponse | undefined;
		[, [found], [stored], , [placed]] = await db.batch([
			idempotency.forgetExpired,
			why,
			idempotency.stored,
			take,
			place,
			placedEvent,
			// The response as the API sends it, so that a retry replays it byte for byte. The order is the
			// one the event just recorded.
			idempotency.remember(
				{ body: orderJson, etag: orderETag },
				orders,
				and(
					eq(
						orders.id,
						sql`(SELECT json_extract(${events.data}, '$.id') FROM ${events} WHERE ${events.id} = last_insert_rowid())`,
					),
					sql`changes() = 1`,
				),
			),
		]);
		if (!placed && stored) return { stored };
	}
	if (placed) return { placed };
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
	const current = matchesETag(orderETag, ifMatch);
	const [[state], [updated], , [unchangedOrder]] = await db.batch([
		probe(db, rowState(orders, eq(orders.id, id), current)),
		// Only an open order changes; completing a complete one again is a no-op, with no write and no event.
		db
			.update(orders)
			.set({ ...patch, version: bump(orders.version) })
			.where(and(eq(orders.id, id), current, eq(orders.complete, false)))
			.returning(orderWithETag),
		recordEvent(db, {
			type: patch.complete ? "order.completed" : "order.updated",
			subject: orderPath,
			data: orderJson,
			source: orders,
			where: eq(orders.id, id),
			now,
		}),
		db.select(orderWithETag).from(orders).where(eq(orders.id, id)),
	]);
	if (updated) return updated;
	const completeAgain =
		patch.complete === true &&
		patch.shipDate === undefined &&
		unchangedOrder?.complete;
	if (state.found && state.current && completeAgain) return unchangedOrder;
	throw unchanged(state, orderNotFound(id), orderComplete(id));
};

/** Deletes an open order that still has an `If-Match` ETag and returns its quantity to stock, in one batch. */
export const cancelOrder = async (
	db: Db,
	id: number,
	ifMatch: string[] | undefined,
	now: number,
): Promise<void> => {
	const current = matchesETag(orderETag, ifMatch);
	const cancellable = and(
		eq(orders.id, id),
		eq(orders.complete, false),
		current,
	);
	const [[state], , cancelled] = await db.batch([
		probe(db, rowState(orders, eq(orders.id, id), current)),
		db
			.update(inventory)
			.set({
				// Capped at the stock bound: stock set to the maximum meanwhile cannot overflow it.
				quantity: sql`min(${inventory.quantity} + (SELECT ${orders.quantity} FROM ${orders} WHERE ${cancellable}), ${limits.stock})`,
				version: bump(inventory.version),
			})
			.where(
				eq(
					inventory.petId,
					sql`(SELECT ${orders.petId} FROM ${orders} WHERE ${cancellable})`,
				),
			),
		db.delete(orders).where(cancellable).returning({ id: orders.id }),
		recordEvent(db, {
			type: "order.cancelled",
			subject: sql`${`/store/orders/${id}`}`,
			data: idOnly(id),
			now,
		}),
	]);
	if (cancelled.length > 0) return;
	throw unchanged(state, orderNotFound(id), orderComplete(id));
};
