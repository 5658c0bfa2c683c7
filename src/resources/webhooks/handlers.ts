import { ifMatch, withETag } from "../../http/conditional";
import { ApiError } from "../../http/errors";
import { listPage } from "../../http/pagination";
import type { AppRouteHandler } from "../../http/router";
import { byId } from "../../models/id";
import * as queries from "./queries";
import type * as routes from "./routes";

const loopback = new Set(["127.0.0.1", "localhost", "[::1]"]);

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
	const url = new URL(body.url);
	// Plain http only to this machine, and only where .dev.vars allows it (local development).
	const local =
		c.env.WEBHOOKS_ALLOW_LOOPBACK === "true" && loopback.has(url.hostname);
	if (url.protocol !== "https:" && !local) {
		throw new ApiError("validation_error", undefined, [
			{ path: "body.url", message: "must be https" },
		]);
	}
	const webhook = await queries.createWebhook(
		c.var.db,
		{ ...body, secret: newSecret() },
		c.var.now(),
	);
	return c.json(withETag(c, webhook), 201, {
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
