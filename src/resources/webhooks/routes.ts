import { z } from "@hono/zod-openapi";
import { linkHeader, pageQuery } from "../../http/pagination";
import { createdContent, jsonBody, jsonContent } from "../../http/responses";
import { apiRoute } from "../../http/route";
import { idParam } from "../../models/id";
import { limits } from "../../models/limits";
import {
	CreatedWebhook,
	NewWebhook,
	Webhook,
	Webhooks,
} from "../../models/webhook";

const tag = "Webhooks";
const params = z.object({ webhookId: idParam("webhookId") });

/** What a delivery looks like: OpenAPI 3.0 callbacks, on the operation that subscribes to them. */
const deliveries = {
	event: {
		"{$request.body#/url}": {
			post: {
				summary: "An event, delivered",
				description:
					"Signed per Standard Webhooks 1.0: `webhook-id` (the same for every attempt; deduplicate on it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, keyed by the secret's bytes after `whsec_`). Any 2xx acknowledges it; anything else, or no answer within 10 s, is retried with backoff, then dead-lettered.",
				requestBody: {
					required: true,
					content: {
						"application/json": {
							schema: { $ref: "#/components/schemas/Event" },
						},
					},
				},
				// The receiver authenticates us by the signature, not by a scheme of the document.
				security: [],
				responses: {
					200: { description: "Received: any 2xx acknowledges the event." },
					400: {
						description:
							"Any other answer is a failure: the delivery is retried with backoff.",
					},
				},
			},
		},
	},
};

export const listWebhooks = apiRoute({
	method: "get",
	path: "/webhooks",
	auth: "bearer",
	operationId: "listWebhooks",
	tag,
	summary: "List webhooks",
	description: "Every webhook with its delivery state, without its secret.",
	request: { query: z.object(pageQuery) },
	responses: {
		200: {
			...jsonContent(Webhooks, "A page of webhooks."),
			headers: linkHeader,
		},
	},
});

export const createWebhook = apiRoute({
	method: "post",
	path: "/webhooks",
	auth: "bearer",
	operationId: "createWebhook",
	tag,
	summary: "Add a webhook",
	description: `Subscribes a URL to event types. The answer holds the signing secret, shown this once. At most ${limits.webhooks} webhooks.`,
	request: { body: jsonBody(NewWebhook, "The endpoint and what it receives.") },
	errors: ["webhook_limit"],
	callbacks: deliveries,
	responses: {
		201: createdContent(CreatedWebhook, "The new webhook, with its secret."),
	},
});

export const getWebhook = apiRoute({
	method: "get",
	path: "/webhooks/{webhookId}",
	auth: "bearer",
	operationId: "getWebhook",
	tag,
	summary: "Find a webhook by id",
	description: "One webhook and its delivery state.",
	request: { params },
	errors: ["not_found"],
	responses: { 200: jsonContent(Webhook, "The webhook.") },
});

export const deleteWebhook = apiRoute({
	method: "delete",
	path: "/webhooks/{webhookId}",
	auth: "bearer",
	operationId: "deleteWebhook",
	tag,
	summary: "Delete a webhook",
	description: "Stops its deliveries, queued ones included.",
	request: { params },
	errors: ["not_found"],
	responses: { 204: { description: "Deleted." } },
});
