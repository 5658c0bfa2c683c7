import { webhook } from "../../db/resources";
import { authenticated } from "../../http/auth";
import { withETag } from "../../http/conditional";
import { listPage } from "../../http/pagination";
import type { AppRouteHandler } from "../../http/router";
import { writeContext } from "../../http/write-context";
import { byId } from "../../models/id";
import * as webhooks from "../../webhooks/changes";
import { endpointOf } from "../../webhooks/endpoints";
import type * as routes from "./routes";

export const listWebhooks: AppRouteHandler<typeof routes.listWebhooks> = async (c) => {
	const page = await listPage(
		c,
		c.req.valid("query"),
		(page) => webhook.page(c.var.db, page, webhooks.ownedBy(authenticated(c))),
		byId,
	);
	return c.json(
		await Promise.all(page.map((answered) => webhooks.withDeliveryState(c.env, answered))),
		200,
	);
};

export const createWebhook: AppRouteHandler<typeof routes.createWebhook> = async (c) => {
	const created = await webhooks.createWebhook(
		writeContext(c),
		c.env,
		authenticated(c),
		c.req.valid("json"),
	);
	return c.json(withETag(c, created), 201, { Location: webhook.pathOf(created.id) });
};

export const getWebhook: AppRouteHandler<typeof routes.getWebhook> = async (c) => {
	const owned = webhooks.ownedBy(authenticated(c));
	const found = await webhook.find(c.var.db, c.req.valid("param").webhookId, owned);
	return c.json(withETag(c, await webhooks.withDeliveryState(c.env, found)), 200);
};

export const updateWebhook: AppRouteHandler<typeof routes.updateWebhook> = async (c) => {
	const updated = await webhooks.updateWebhook(
		writeContext(c),
		c.env,
		c.req.valid("param").webhookId,
		webhooks.ownedBy(authenticated(c)),
		c.req.valid("json"),
	);
	return c.json(withETag(c, updated), 200);
};

export const rotateWebhookSecret: AppRouteHandler<typeof routes.rotateWebhookSecret> = async (
	c,
) => {
	const rotated = await webhooks.rotateWebhookSecret(
		writeContext(c),
		c.env,
		c.req.valid("param").webhookId,
		webhooks.ownedBy(authenticated(c)),
	);
	return c.json(withETag(c, rotated), 200);
};

export const replayWebhook: AppRouteHandler<typeof routes.replayWebhook> = async (c) => {
	await webhooks.replayWebhook(
		c.var.db,
		c.env,
		c.req.valid("param").webhookId,
		webhooks.ownedBy(authenticated(c)),
		c.req.valid("json").after,
		c.var.now(),
	);
	return c.body(null, 202);
};

export const listWebhookDeliveries: AppRouteHandler<typeof routes.listWebhookDeliveries> = async (
	c,
) => {
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
};

export const deleteWebhook: AppRouteHandler<typeof routes.deleteWebhook> = async (c) => {
	await webhooks.deleteWebhook(
		writeContext(c),
		c.env,
		c.req.valid("param").webhookId,
		webhooks.ownedBy(authenticated(c)),
	);
	return c.body(null, 204);
};
