import { createRouter } from "../../http/router";
import * as handlers from "./handlers";
import * as routes from "./routes";

export const keysRouter = createRouter()
	.openapi(routes.listKeys, handlers.listKeys)
	.openapi(routes.createKey, handlers.createKey)
	.openapi(routes.getKey, handlers.getKey)
	.openapi(routes.updateKey, handlers.updateKey)
	.openapi(routes.revokeKey, handlers.revokeKey)
	.openapi(routes.rollKey, handlers.rollKey);
