import { apiKey } from "../../db/resources";
import { authenticated, forgetKey } from "../../http/auth";
import { withETag } from "../../http/conditional";
import { createRouter } from "../../http/router";
import { writeContext } from "../../http/write-context";
import { byId } from "../../models/id";
import { readOne, readPage } from "../reads";
import * as queries from "./queries";
import * as routes from "./routes";

// A change of a key applies in this isolate at once (it forgets the key), elsewhere within 10 seconds.
export const keysRouter = createRouter()
	.openapi(routes.listKeys, readPage(apiKey.page, byId))
	.openapi(routes.createKey, async (c) => {
		const created = await queries.createKey(writeContext(c), authenticated(c), c.req.valid("json"));
		return c.json(withETag(c, created), 201, { Location: apiKey.pathOf(created.id) });
	})
	.openapi(routes.getKey, readOne(apiKey))
	.openapi(routes.updateKey, async (c) => {
		const { keyId } = c.req.valid("param");
		const patch = c.req.valid("json");
		const updated = await queries.updateKey(writeContext(c), authenticated(c), keyId, patch);
		forgetKey(keyId);
		return c.json(withETag(c, updated), 200);
	})
	.openapi(routes.revokeKey, async (c) => {
		const { keyId } = c.req.valid("param");
		await queries.revokeKey(writeContext(c), c.env, keyId);
		forgetKey(keyId);
		return c.body(null, 204);
	})
	.openapi(routes.rollKey, async (c) => {
		const { keyId } = c.req.valid("param");
		const roll = c.req.valid("json");
		const rolled = await queries.rollKey(writeContext(c), authenticated(c), keyId, roll);
		forgetKey(keyId);
		return c.json(withETag(c, rolled), 200);
	});
