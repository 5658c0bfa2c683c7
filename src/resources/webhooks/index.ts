import { createRouter } from "../../http/router";
import * as handlers from "./handlers";
import * as routes from "./routes";

export const webhooksRouter = createRouter()
	.openapi(routes.listWebhooks, handlers.listWebhooks)
	.openapi(routes.createWebhook, handlers.createWebhook)
	.openapi(routes.getWebhook, handlers.getWebhook)
	.openapi(routes.updateWebhook, handlers.updateWebhook)
	.openapi(routes.deleteWebhook, handlers.deleteWebhook)
	.openapi(routes.rotateWebhookSecret, handlers.rotateWebhookSecret)
	.openapi(routes.replayWebhook, handlers.replayWebhook)
	.openapi(routes.listWebhookDeliveries, handlers.listWebhookDeliveries);
