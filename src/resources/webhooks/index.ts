import type { Context } from "hono";
import { webhook } from "../../db/resources";
import type { AppEnv } from "../../env";
import { authenticated } from "../../http/auth";
import { withETag } from "../../http/conditional";
import { createdHeaders } from "../../http/idempotency";
import { listPage, type Page } from "../../http/pagination";
import { createRouter, retrying } from "../../http/router";
import { writeContext } from "../../http/write-context";
import { byId } from "../../models/id";
import { endpointOf } from "../../webhooks/endpoint-config";
import * as queries from "./queries";
import * as routes from "./routes";

/** The webhooks the request's client acts on (see `ownedBy`). */
const owned = (c: Context<AppEnv>) => queries.ownedBy(authenticated(c));

/** The request's change to webhook `id`, within those. */
const changeOf = (c: Context<AppEnv>, id: number): queries.Change => ({
	ctx: writeContext(c),
	env: c.env,
	id,
	owned: owned(c),
});

export const webhooksRouter = createRouter()
	.openapi(
		routes.listWebhooks,
		retrying(async (c) => {
			const query = c.req.valid("query");
			const page = await listPage(c, query, (page) => webhook.page(c.var.db, page, owned(c)), byId);
			const answered = page.map((one) => queries.withDeliveryState(c.env, one));
			return c.json(await Promise.all(answered), 200);
		}),
	)
	.openapi(routes.createWebhook, async (c) => {
		const body = c.req.valid("json");
		const created = await queries.createWebhook(writeContext(c), c.env, authenticated(c), body);
		const headers = createdHeaders(webhook.pathOf(created.webhook.id), created.replayed);
		return c.json(withETag(c, created.webhook), 201, headers);
	})
	.openapi(
		routes.getWebhook,
		retrying(async (c) => {
			const found = await webhook.find(c.var.db, c.req.valid("param").webhookId, owned(c));
			return c.json(withETag(c, await queries.withDeliveryState(c.env, found)), 200);
		}),
	)
	.openapi(routes.updateWebhook, async (c) => {
		const change = changeOf(c, c.req.valid("param").webhookId);
		const updated = await queries.updateWebhook(change, c.req.valid("json"));
		return c.json(withETag(c, updated), 200);
	})
	.openapi(routes.deleteWebhook, async (c) => {
		await queries.deleteWebhook(changeOf(c, c.req.valid("param").webhookId));
		return c.body(null, 204);
	})
	.openapi(routes.rotateWebhookSecret, async (c) => {
		const rotated = await queries.rotateWebhookSecret(changeOf(c, c.req.valid("param").webhookId));
		return c.json(withETag(c, rotated), 200);
	})
	.openapi(routes.replayWebhook, async (c) => {
		const change = changeOf(c, c.req.valid("param").webhookId);
		await queries.replayWebhook(change, c.req.valid("json").after);
		return c.body(null, 202);
	})
	.openapi(
		routes.listWebhookDeliveries,
		retrying(async (c) => {
			const { webhookId } = c.req.valid("param");
			// The webhook must exist: an endpoint that never received anything has an empty log too.
			await webhook.find(c.var.db, webhookId, owned(c));
			const load = ({ after, limit }: Page) =>
				endpointOf(c.env, webhookId).deliveries(after, limit + 1);
			return c.json(await listPage(c, c.req.valid("query"), load, byId), 200);
		}),
	);
