import type { Context } from "hono";
import { webhook as resource } from "../../db/resources";
import type { AppEnv } from "../../env";
import { withETag, writeContext } from "../../http/conditional";
import { idempotent } from "../../http/idempotency";
import { listPage } from "../../http/pagination";
import type { AppRouteHandler } from "../../http/router";
import { byId } from "../../models/id";
import type { DeliveryState, Webhook } from "../../models/webhook";
import { endpointOf } from "../../webhooks/endpoints";
import { replayedSecret } from "../../webhooks/replayed-secret";
import { type SealedSecret, sealSecret } from "../../webhooks/secret-box";
import { storableUrl } from "../../webhooks/url";
import * as queries from "./queries";
import type * as routes from "./routes";

/** `whsec_` and 32 random bytes in base64: the Standard Webhooks secret format. */
const newSecret = () =>
	`whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;

/** The delivery state of a webhook that has had no delivery yet. */
const noDeliveries: DeliveryState = {
	failures: 0,
	lastStatus: null,
	lastAttemptAt: null,
};

/** The webhook as the API answers it: its row, and its endpoint's delivery state (which is not in its ETag). */
const withDeliveryState = async <T extends { id: number }>(
	c: Context<AppEnv>,
	webhook: T,
) => ({
	...webhook,
	...(await endpointOf(c.env, webhook.id).deliveryState()),
});

export const listWebhooks: AppRouteHandler<typeof routes.listWebhooks> = async (
	c,
) => {
	const page = await listPage(
		c,
		c.req.valid("query"),
		(page) => resource.page(c.var.db, page),
		byId,
	);
	return c.json(
		await Promise.all(page.map((webhook) => withDeliveryState(c, webhook))),
		200,
	);
};

export const createWebhook: AppRouteHandler<
	typeof routes.createWebhook
> = async (c) => {
	const body = c.req.valid("json");
	const url = storableUrl(body.url, c.env);
	const secret = newSecret();
	const sealed = await sealSecret(secret, c.env);
	const created: Omit<Webhook, keyof DeliveryState> & {
		etag: string;
		secret?: SealedSecret;
	} = await idempotent(c, (ctx) =>
		queries.createWebhook(ctx, { url, events: body.events, secret: sealed }),
	);
	// A replay answers the secret its record keeps, only while it is still the webhook's.
	const shown = created.secret
		? await replayedSecret(c.var.db, c.env, created.id, created.secret)
		: secret;
	return c.json(
		withETag(c, { ...created, ...noDeliveries, secret: shown }),
		201,
		{ Location: resource.pathOf(created.id) },
	);
};

export const getWebhook: AppRouteHandler<typeof routes.getWebhook> = async (
	c,
) => {
	const webhook = await resource.find(c.var.db, c.req.valid("param").webhookId);
	return c.json(withETag(c, await withDeliveryState(c, webhook)), 200);
};

export const updateWebhook: AppRouteHandler<
	typeof routes.updateWebhook
> = async (c) => {
	const patch = c.req.valid("json");
	const { webhook, config } = await queries.updateWebhook(
		writeContext(c),
		c.req.valid("param").webhookId,
		patch.url === undefined
			? patch
			: { ...patch, url: storableUrl(patch.url, c.env) },
	);
	const delivery = await endpointOf(c.env, webhook.id).configure(
		config,
		c.var.now(),
		patch.disabled,
	);
	return c.json(withETag(c, { ...webhook, ...delivery }), 200);
};

export const rotateWebhookSecret: AppRouteHandler<
	typeof routes.rotateWebhookSecret
> = async (c) => {
	const ctx = writeContext(c);
	const secret = newSecret();
	const { webhook, config } = await queries.rotateWebhookSecret(
		ctx,
		c.req.valid("param").webhookId,
		await sealSecret(secret, c.env),
	);
	const delivery = await endpointOf(c.env, webhook.id).configure(
		config,
		ctx.now,
	);
	return c.json(withETag(c, { ...webhook, ...delivery, secret }), 200);
};

export const replayWebhook: AppRouteHandler<
	typeof routes.replayWebhook
> = async (c) => {
	const { webhook, config } = await queries.getEndpoint(
		c.var.db,
		c.req.valid("param").webhookId,
	);
	await endpointOf(c.env, webhook.id).replay(
		config,
		{
			after: c.req.valid("json").after,
			events: webhook.events,
			createdAt: webhook.createdAt,
		},
		c.var.now(),
	);
	return c.body(null, 202);
};

export const listWebhookDeliveries: AppRouteHandler<
	typeof routes.listWebhookDeliveries
> = async (c) => {
	const { webhookId } = c.req.valid("param");
	// The webhook must exist: an endpoint that never received anything has an empty log too.
	await resource.find(c.var.db, webhookId);
	const endpoint = endpointOf(c.env, webhookId);
	const page = await listPage(
		c,
		c.req.valid("query"),
		({ after, limit }) => endpoint.deliveries(after, limit + 1),
		byId,
	);
	return c.json(page, 200);
};

export const deleteWebhook: AppRouteHandler<
	typeof routes.deleteWebhook
> = async (c) => {
	const { webhookId } = c.req.valid("param");
	await queries.deleteWebhook(writeContext(c), webhookId);
	await endpointOf(c.env, webhookId).forget();
	return c.body(null, 204);
};
