import { inventoryItem } from "../../db/resources";
import { withETag } from "../../http/conditional";
import { listPage } from "../../http/pagination";
import { createRouter, retrying } from "../../http/router";
import { writeContext } from "../../http/write-context";
import { byPetId } from "../../models/inventory";
import * as queries from "./queries";
import * as routes from "./routes";

export const inventoryRouter = createRouter()
	.openapi(
		routes.listInventory,
		retrying(async (c) => {
			const page = await listPage(
				c,
				c.req.valid("query"),
				(filter) => queries.listInventory(c.var.db, filter),
				byPetId,
			);
			return c.json(page, 200);
		}),
	)
	.openapi(
		routes.getInventoryItem,
		retrying(async (c) =>
			c.json(withETag(c, await inventoryItem.find(c.var.db, c.req.valid("param").petId)), 200),
		),
	)
	.openapi(routes.setInventory, async (c) => {
		const { petId } = c.req.valid("param");
		const item = await queries.setInventory(writeContext(c), petId, c.req.valid("json").quantity);
		return c.json(withETag(c, item), 200);
	});
