import { order } from "../../db/resources";
import { withETag } from "../../http/conditional";
import { createdHeaders } from "../../http/idempotency";
import { listPage } from "../../http/pagination";
import { createRouter, retrying } from "../../http/router";
import { writeContext } from "../../http/write-context";
import { byId } from "../../models/id";
import * as queries from "./queries";
import * as routes from "./routes";

export const ordersRouter = createRouter()
	.openapi(
		routes.listOrders,
		retrying(async (c) => {
			const query = c.req.valid("query");
			const orders = await listPage(c, query, (page) => queries.listOrders(c.var.db, page), byId);
			return c.json(orders, 200);
		}),
	)
	.openapi(routes.placeOrder, async (c) => {
		const placed = await queries.placeOrder(writeContext(c), c.req.valid("json"));
		const headers = createdHeaders(order.pathOf(placed.order.id), placed.replayed);
		return c.json(withETag(c, placed.order), 201, headers);
	})
	.openapi(
		routes.getOrderById,
		retrying(async (c) =>
			c.json(withETag(c, await order.find(c.var.db, c.req.valid("param").orderId)), 200),
		),
	)
	.openapi(routes.updateOrder, async (c) => {
		const { orderId } = c.req.valid("param");
		const updated = await queries.updateOrder(writeContext(c), orderId, c.req.valid("json"));
		return c.json(withETag(c, updated), 200);
	})
	.openapi(routes.cancelOrder, async (c) => {
		await queries.cancelOrder(writeContext(c), c.req.valid("param").orderId);
		return c.body(null, 204);
	});
