import { order } from "../../db/resources";
import { withETag } from "../../http/conditional";
import { createdHeaders } from "../../http/idempotency";
import { createRouter } from "../../http/router";
import { writeContext } from "../../http/write-context";
import { byId } from "../../models/id";
import { readOne, readPage } from "../reads";
import * as queries from "./queries";
import * as routes from "./routes";

export const ordersRouter = createRouter()
	.openapi(routes.listOrders, readPage(queries.listOrders, byId))
	.openapi(routes.placeOrder, async (c) => {
		const placed = await queries.placeOrder(writeContext(c), c.req.valid("json"));
		const headers = createdHeaders(order.pathOf(placed.order.id), placed.replayed);
		return c.json(withETag(c, placed.order), 201, headers);
	})
	.openapi(routes.getOrderById, readOne(order))
	.openapi(routes.updateOrder, async (c) => {
		const { orderId } = c.req.valid("param");
		const updated = await queries.updateOrder(writeContext(c), orderId, c.req.valid("json"));
		return c.json(withETag(c, updated), 200);
	})
	.openapi(routes.cancelOrder, async (c) => {
		await queries.cancelOrder(writeContext(c), c.req.valid("param").orderId);
		return c.body(null, 204);
	});
