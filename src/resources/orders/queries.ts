import { and, eq, gt, lt, not, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
	autoId,
	bump,
	etagOf,
	exists,
	matchesETag,
	oneRow,
	probe,
	rowState,
} from "../../db/conditional";
import { idempotencyKeys, inventory, orders, pets } from "../../db/schema";
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

export type OrderFilter = {
	after: number;
	limit: number;
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

export const getOrder = (
	db: Db,
	id: number,
): Promise<TaggedOrder | undefined> =>
	db.select(orderWithETag).from(orders).where(eq(orders.id, id)).get();

export type Placement = {
	petId: number;
	quantity: number;
	shipDate: string;
	/** The idempotency key and request hash, when the client sent a key. */
	idempotency?: { key: string; requestHash: string };
	now: number;
	/** Stored records created before this instant are expired. */
	expiredBefore: number;
};

export type PlacementResult =
	| { placed: TaggedOrder }
	| { replay: { requestHash: string; body: string; etag: string | null } }
	| { failure: "unknown_pet" | "pet_not_available" | "insufficient_stock" };

/**
 * Places an order in one atomic batch: the stock is taken only while it covers the quantity, the pet is
 * available and the idempotency key (if any) is unused; the order and its idempotency record are stored only
 * when the stock was taken. A probe read first says why nothing happened.
 */
export const placeOrder = async (
	db: Db,
	placement: Placement,
): Promise<PlacementResult> => {
	const { petId, quantity, idempotency } = placement;
	const petAvailable = exists(
		pets,
		and(eq(pets.id, petId), eq(pets.status, "available")),
	);
	const why = probe(db, {
		pet: exists(pets, eq(pets.id, petId)),
		petAvailable,
	});
	const keyed = idempotency && {
		...idempotency,
		record: sql`${idempotencyKeys.key} = ${idempotency.key}`,
	};
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
				keyed && not(exists(idempotencyKeys, keyed.record)),
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
					shipDate: sql`${placement.shipDate}`.as("ship_date"),
					complete: sql`0`.as("complete"),
					version: sql`1`.as("version"),
				})
				.from(oneRow)
				.where(sql`changes() = 1`),
		)
		.returning(orderWithETag);
	const failure = (found: { pet: boolean; petAvailable: boolean }) => {
		if (!found.pet) return { failure: "unknown_pet" } as const;
		if (!found.petAvailable) return { failure: "pet_not_available" } as const;
		return { failure: "insufficient_stock" } as const;
	};

	if (!keyed) {
		const [[found], , [placed]] = await db.batch([why, take, place]);
		return placed ? { placed } : failure(found);
	}
	const [, [found], [replay], , [placed]] = await db.batch([
		db
			.delete(idempotencyKeys)
			.where(lt(idempotencyKeys.createdAt, placement.expiredBefore)),
		why,
		db.select().from(idempotencyKeys).where(keyed.record),
		take,
		place,
		// The response as the API sends it, so that a retry replays it byte for byte.
		db.insert(idempotencyKeys).select(
			db
				.select({
					key: sql`${keyed.key}`.as("key"),
					requestHash: sql`${keyed.requestHash}`.as("request_hash"),
					body: sql`json_object('id', ${orders.id}, 'petId', ${orders.petId}, 'quantity', ${orders.quantity}, 'shipDate', ${orders.shipDate}, 'complete', json('false'))`.as(
						"body",
					),
					etag: sql`${orderETag}`.as("etag"),
					createdAt: sql`${placement.now}`.as("created_at"),
				})
				.from(orders)
				.where(
					and(eq(orders.id, sql`last_insert_rowid()`), sql`changes() = 1`),
				),
		),
	]);
	if (placed) return { placed };
	if (replay) return { replay };
	return failure(found);
};

export type OrderChange =
	| { order: TaggedOrder }
	| { failure: "not_found" | "precondition_failed" | "order_complete" };

/**
 * Applies the patch to an open order that still has an `If-Match` ETag (when given). A complete order is
 * final: only `complete: true` (a no-op) is accepted.
 */
export const updateOrder = async (
	db: Db,
	id: number,
	patch: OrderPatch,
	ifMatch: string[] | undefined,
): Promise<OrderChange> => {
	const current = matchesETag(orderETag, ifMatch);
	const changesAllowed =
		patch.shipDate === undefined && patch.complete !== false
			? sql`1`
			: eq(orders.complete, false);
	const [[state], [updated]] = await db.batch([
		probe(db, {
			...rowState(orders, eq(orders.id, id), current),
		}),
		db
			.update(orders)
			.set({ ...patch, version: bump(orders.version) })
			.where(and(eq(orders.id, id), current, changesAllowed))
			.returning(orderWithETag),
	]);
	if (updated) return { order: updated };
	if (!state.found) return { failure: "not_found" };
	return { failure: state.current ? "order_complete" : "precondition_failed" };
};

/** Deletes an open order that still has an `If-Match` ETag and returns its quantity to stock, in one batch. */
export const cancelOrder = async (
	db: Db,
	id: number,
	ifMatch: string[] | undefined,
): Promise<
	"cancelled" | "not_found" | "precondition_failed" | "order_complete"
> => {
	const current = matchesETag(orderETag, ifMatch);
	const cancellable = and(
		eq(orders.id, id),
		eq(orders.complete, false),
		current,
	);
	const [[state], , cancelled] = await db.batch([
		probe(db, {
			...rowState(orders, eq(orders.id, id), current),
		}),
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
	]);
	if (cancelled.length > 0) return "cancelled";
	if (!state.found) return "not_found";
	return state.current ? "order_complete" : "precondition_failed";
};
