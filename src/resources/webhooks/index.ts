import { webhook } from "../../db/resources";
import { authenticated } from "../../http/auth";
import { withETag } from "../../http/conditional";
import { listPage } from "../../http/pagination";
import { createRouter } from "../../http/router";
import { writeContext } from "../../http/write-context";
import { byId } from "../../models/id";
import * as webhooks from "../../webhooks/changes";
import { endpointOf } from "../../webhooks/endpoints";
import * as routes from "./routes";

export const webhooksRouter = createRouter()
	.openapi(routes.listWebhooks, async (c) => {
		const owned = webhooks.ownedBy(authenticated(c));
		const query = c.req.valid("query");
		const page = await listPage(c, query, (page) => webhook.page(c.var.db, page, owned), byId);
		const answered = page.map((one) => webhooks.withDeliveryState(c.env, one));
		return c.json(await Promise.all(answered), 200);
	})
	.openapi(routes.createWebhook, async (c) => {
		const body = c.req.valid("json");
		const created = await webhooks.createWebhook(writeContext(c), c.env, authenticated(c), body);
		return c.json(withETag(c, created), 201, { Location: webhook.pathOf(created.id) });
	})
	.openapi(routes.getWebhook, async (c) => {
		const owned = webhooks.ownedBy(authenticated(c));
		const found = await webhook.find(c.var.db, c.req.valid("param").webhookId, owned);
		return c.json(withETag(c, await webhooks.withDeliveryState(c.env, found)), 200);
	})
	.openapi(routes.updateWebhook, async (c) => {
		const owned = webhooks.ownedBy(authenticated(c));
		const { webhookId } = c.req.valid("param");
		const patch = c.req.valid("json");
		const updated = await webhooks.updateWebhook(writeContext(c), c.env, webhookId, owned, patch);
		return c.json(withETag(c, updated), 200);
	})
	.openapi(routes.deleteWebhook, async (c) => {
		const owned = webhooks.ownedBy(authenticated(c));
		await webhooks.deleteWebhook(writeContext(c), c.env, c.req.valid("param").webhookId, owned);
		return c.body(null, 204);
	})
	.openapi(routes.rotateWebhookSecret, async (c) => {
		const owned = webhooks.ownedBy(authenticated(c));
		const { webhookId } = c.req.valid("param");
		const rotated = await webhooks.rotateWebhookSecret(writeContext(c), c.env, webhookId, owned);
		return c.json(withETag(c, rotated), 200);
	})
	.openapi(routes.replayWebhook, async (c) => {
		const owned = webhooks.ownedBy(authenticated(c));
		const { webhookId } = c.req.valid("param");
		const { after } = c.req.valid("json");
		await webhooks.replayWebhook(c.var.db, c.env, webhookId, owned, after, c.var.now());
		return c.body(null, 202);
	})
	.openapi(routes.listWebhookDeliveries, async (c) => {
		const { webhookId } = c.req.valid("param");
		// The webhook must exist: an endpoint that never received anything has an empty log too.
		await webhook.find(c.var.db, webhookId, webhooks.ownedBy(authenticated(c)));
		const endpoint = endpointOf(c.env, webhookId);
		const page = await listPage(
			c,
			c.req.valid("query"),
			({ after, limit }) => endpoint.deliveries(after, limit + 1),
			byId,
		);
		return c.json(page, 200);
	});
