import { sealSecret } from "../../db/secret-box";
import { ifMatch, withETag } from "../../http/conditional";
import { ApiError } from "../../http/errors";
import { listPage } from "../../http/pagination";
import type { AppRouteHandler } from "../../http/router";
import { byId } from "../../models/id";
import { checkWebhookUrl } from "../../models/webhook-url";
import * as queries from "./queries";
import type * as routes from "./routes";

/** The URL as stored, normalised; a validation_error on `body.url` where this environment may not deliver to it. */
const allowedUrl = (url: string, env: Env) => {
	const { href, problem } = checkWebhookUrl(url, env);
	if (problem !== undefined) {
		throw new ApiError("validation_error", undefined, [
			{ path: "body.url", message: problem },
		]);
	}
	return href;
};

/** `whsec_` and 32 random bytes in base64: the Standard Webhooks secret format. */
const newSecret = () =>
	`whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;

export const listWebhooks: AppRouteHandler<typeof routes.listWebhooks> = async (
	c,
) => {
	const page = await listPage(
		c,
		c.req.valid("query"),
		(filter) => queries.listWebhooks(c.var.db, filter),
		byId,
	);
	return c.json(page, 200);
};

export const createWebhook: AppRouteHandler<
	typeof routes.createWebhook
> = async (c) => {
	const body = c.req.valid("json");
	const url = allowedUrl(body.url, c.env);
	const secret = newSecret();
	const webhook = await queries.createWebhook(
		c.var.db,
		{ url, events: body.events, secret: await sealSecret(secret, c.env) },
		c.var.now(),
	);
	return c.json(withETag(c, { ...webhook, secret }), 201, {
		Location: `/webhooks/${webhook.id}`,
	});
};

export const getWebhook: AppRouteHandler<typeof routes.getWebhook> = async (
	c,
) => {
	const webhook = await queries.getWebhook(
		c.var.db,
		c.req.valid("param").webhookId,
	);
	return c.json(withETag(c, webhook), 200);
};

export const deleteWebhook: AppRouteHandler<
	typeof routes.deleteWebhook
> = async (c) => {
	await queries.deleteWebhook(
		c.var.db,
		c.req.valid("param").webhookId,
		ifMatch(c),
	);
	return c.body(null, 204);
};
