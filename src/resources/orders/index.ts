import { createRouter } from "../../http/router";
import * as handlers from "./handlers";
import * as routes from "./routes";

export const ordersRouter = createRouter()
	.openapi(routes.listOrders, handlers.listOrders)
	.openapi(routes.placeOrder, handlers.placeOrder)
	.openapi(routes.getOrderById, handlers.getOrderById)
	.openapi(routes.updateOrder, handlers.updateOrder)
	.openapi(routes.cancelOrder, handlers.cancelOrder);
