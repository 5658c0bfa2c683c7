import { inventoryItem } from "../../db/resources";
import { withETag } from "../../http/conditional";
import { createRouter } from "../../http/router";
import { writeContext } from "../../http/write-context";
import { byPetId } from "../../models/inventory";
import { readOne, readPage } from "../reads";
import * as queries from "./queries";
import * as routes from "./routes";

export const inventoryRouter = createRouter()
	.openapi(routes.listInventory, readPage(queries.listInventory, byPetId))
	.openapi(routes.getInventoryItem, readOne(inventoryItem))
	.openapi(routes.setInventory, async (c) => {
		const { petId } = c.req.valid("param");
		const item = await queries.setInventory(writeContext(c), petId, c.req.valid("json").quantity);
		return c.json(withETag(c, item), 200);
	});
