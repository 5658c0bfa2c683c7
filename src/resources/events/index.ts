import { createRouter } from "../../http/router";
import * as handlers from "./handlers";
import * as routes from "./routes";

export const eventsRouter = createRouter().openapi(routes.listEvents, handlers.listEvents);
