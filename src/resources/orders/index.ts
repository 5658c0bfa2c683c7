import { order } from "../../db/resources";
import { withETag } from "../../http/conditional";
import { listPage } from "../../http/pagination";
import { createRouter } from "../../http/router";
import { writeContext } from "../../http/write-context";
import { byId } from "../../models/id";
import * as queries from "./queries";
import * as routes from "./routes";

export const ordersRouter = createRouter()
	.openapi(routes.listOrders, async (c) => {
		const page = await listPage(
			c,
			c.req.valid("query"),
			(filter) => queries.listOrders(c.var.db, filter),
			byId,
		);
		return c.json(page, 200);
	})
	.openapi(routes.placeOrder, async (c) => {
		const placed = await queries.placeOrder(writeContext(c), c.req.valid("json"));
		return c.json(withETag(c, placed), 201, { Location: order.pathOf(placed.id) });
	})
	.openapi(routes.getOrderById, async (c) =>
		c.json(withETag(c, await order.find(c.var.db, c.req.valid("param").orderId)), 200),
	)
	.openapi(routes.updateOrder, async (c) => {
		const updated = await queries.updateOrder(
			writeContext(c),
			c.req.valid("param").orderId,
			c.req.valid("json"),
		);
		return c.json(withETag(c, updated), 200);
	})
	.openapi(routes.cancelOrder, async (c) => {
		await queries.cancelOrder(writeContext(c), c.req.valid("param").orderId);
		return c.body(null, 204);
	});
