import { listPage } from "../../http/pagination";
import type { AppRouteHandler } from "../../http/router";
import { byId } from "../../models/id";
import * as queries from "./queries";
import type * as routes from "./routes";

export const listEvents: AppRouteHandler<typeof routes.listEvents> = async (
	c,
) => {
	const page = await listPage(
		c,
		c.req.valid("query"),
		(filter) => queries.listEvents(c.var.db, filter),
		byId,
	);
	return c.json(page, 200);
};
