import { order as resource } from "../../db/resources";
import { ifMatch, withETag } from "../../http/conditional";
import { createdOrReplayed, keyOf } from "../../http/idempotency";
import { listPage } from "../../http/pagination";
import type { AppRouteHandler } from "../../http/router";
import { byId } from "../../models/id";
import type { Order } from "../../models/order";
import * as queries from "./queries";
import type * as routes from "./routes";

export const listOrders: AppRouteHandler<typeof routes.listOrders> = async (
	c,
) => {
	const page = await listPage(
		c,
		c.req.valid("query"),
		(filter) => queries.listOrders(c.var.db, filter),
		byId,
	);
	return c.json(page, 200);
};

export const placeOrder: AppRouteHandler<typeof routes.placeOrder> = async (
	c,
) => {
	const body = c.req.valid("json");
	const keyed = await keyOf(c, body);
	const order = createdOrReplayed<Order>(
		c,
		keyed,
		await queries.placeOrder(
			c.var.db,
			{
				...body,
				shipDate: body.shipDate ?? new Date(c.var.now()).toISOString(),
			},
			keyed,
			c.var.now(),
		),
	);
	return c.json(withETag(c, order), 201, {
		Location: resource.pathOf(order.id),
	});
};

export const getOrderById: AppRouteHandler<typeof routes.getOrderById> = async (
	c,
) => {
	const order = await queries.getOrder(c.var.db, c.req.valid("param").orderId);
	return c.json(withETag(c, order), 200);
};

export const updateOrder: AppRouteHandler<typeof routes.updateOrder> = async (
	c,
) => {
	const order = await queries.updateOrder(
		c.var.db,
		c.req.valid("param").orderId,
		c.req.valid("json"),
		ifMatch(c),
		c.var.now(),
	);
	return c.json(withETag(c, order), 200);
};

export const cancelOrder: AppRouteHandler<typeof routes.cancelOrder> = async (
	c,
) => {
	await queries.cancelOrder(
		c.var.db,
		c.req.valid("param").orderId,
		ifMatch(c),
		c.var.now(),
	);
	return c.body(null, 204);
};
