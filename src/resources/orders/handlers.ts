import { ifMatch, preconditionFailed, withETag } from "../../http/conditional";
import { ApiError } from "../../http/errors";
import { idempotencyWindowMs, requestHash } from "../../http/idempotency";
import { paginate, startOf } from "../../http/pagination";
import type { AppRouteHandler } from "../../http/router";
import { byId } from "../../models/id";
import type { Order } from "../../models/order";
import * as queries from "./queries";
import type * as routes from "./routes";

const orderNotFound = (id: number) =>
	new ApiError("not_found", `Order ${id} does not exist.`);
const orderComplete = (id: number) =>
	new ApiError("order_complete", `Order ${id} is complete and final.`);
const location = (order: Order) => `/store/orders/${order.id}`;

export const listOrders: AppRouteHandler<typeof routes.listOrders> = async (
	c,
) => {
	const { limit, cursor, ...filter } = c.req.valid("query");
	const rows = await queries.listOrders(c.var.db, {
		...filter,
		limit,
		after: await startOf(c, cursor),
	});
	return c.json(await paginate(c, rows, limit, byId), 200);
};

export const placeOrder: AppRouteHandler<typeof routes.placeOrder> = async (
	c,
) => {
	const { petId, quantity, shipDate } = c.req.valid("json");
	const key = c.req.valid("header")["Idempotency-Key"];
	const now = c.var.now();
	const idempotency = key
		? { key, requestHash: await requestHash(c) }
		: undefined;
	const result = await queries.placeOrder(c.var.db, {
		petId,
		quantity,
		shipDate: new Date(shipDate ?? now).toISOString(),
		idempotency,
		now,
		expiredBefore: now - idempotencyWindowMs,
	});
	if ("placed" in result) {
		return c.json(withETag(c, result.placed), 201, {
			Location: location(result.placed),
		});
	}
	if ("replay" in result) {
		if (result.replay.requestHash !== idempotency?.requestHash) {
			throw new ApiError(
				"idempotency_key_reused",
				"This Idempotency-Key was used with a different request.",
			);
		}
		const { body, etag } = result.replay;
		if (etag) c.header("ETag", etag);
		const order: Order = JSON.parse(body);
		return c.json(order, 201, {
			Location: location(order),
			"Idempotency-Replayed": "true",
		});
	}
	const messages = {
		unknown_pet: `Pet ${petId} does not exist.`,
		pet_not_available: `Pet ${petId} is not available.`,
		insufficient_stock: `Pet ${petId} has fewer than ${quantity} in stock.`,
	};
	throw new ApiError(result.failure, messages[result.failure]);
};

export const getOrderById: AppRouteHandler<typeof routes.getOrderById> = async (
	c,
) => {
	const { orderId } = c.req.valid("param");
	const order = await queries.getOrder(c.var.db, orderId);
	if (!order) throw orderNotFound(orderId);
	return c.json(withETag(c, order), 200);
};

export const updateOrder: AppRouteHandler<typeof routes.updateOrder> = async (
	c,
) => {
	const { orderId } = c.req.valid("param");
	const { shipDate, complete } = c.req.valid("json");
	const result = await queries.updateOrder(
		c.var.db,
		orderId,
		{ shipDate: shipDate && new Date(shipDate).toISOString(), complete },
		ifMatch(c),
	);
	if ("order" in result) return c.json(withETag(c, result.order), 200);
	if (result.failure === "not_found") throw orderNotFound(orderId);
	if (result.failure === "precondition_failed") throw preconditionFailed();
	throw orderComplete(orderId);
};

export const cancelOrder: AppRouteHandler<typeof routes.cancelOrder> = async (
	c,
) => {
	const { orderId } = c.req.valid("param");
	const result = await queries.cancelOrder(c.var.db, orderId, ifMatch(c));
	if (result === "not_found") throw orderNotFound(orderId);
	if (result === "precondition_failed") throw preconditionFailed();
	if (result === "order_complete") throw orderComplete(orderId);
	return c.body(null, 204);
};
