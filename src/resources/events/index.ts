import { listPage } from "../../http/pagination";
import { createRouter, retrying } from "../../http/router";
import { byId } from "../../models/id";
import * as queries from "./queries";
import * as routes from "./routes";

export const eventsRouter = createRouter().openapi(
	routes.listEvents,
	retrying(async (c) => {
		const { after: since = 0, ...query } = c.req.valid("query");
		const page = await listPage(
			c,
			query,
			// A cursor's position is past `after`, which its link carries along.
			(filter) => queries.listEvents(c.var.db, { ...filter, after: Math.max(filter.after, since) }),
			byId,
		);
		return c.json(page, 200);
	}),
);
