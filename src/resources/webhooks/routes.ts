import { z } from "@hono/zod-openapi";
import { webhook } from "../../db/resources";
import { linkHeader, pageQuery } from "../../http/pagination";
import { createdContent, jsonBody, jsonContent } from "../../http/responses";
import { apiRoute, type Tag } from "../../http/route";
import { idParam } from "../../models/id";
import { durations, inWords, limits } from "../../models/limits";
import { CreatedWebhook, NewWebhook, Webhook, WebhookPatch, Webhooks } from "../../models/webhook";
import { userAgent, WebhookDeliveries, WebhookReplay } from "../../models/webhook-delivery";

const tag: Tag = {
	name: "Webhooks",
	title: "Webhooks",
	description: "Endpoints that receive events, signed per Standard Webhooks.",
	icon: "bell",
	parent: "Integrations",
};
const params = z.object({ webhookId: idParam("webhookId") });
/** What every operation on webhooks declares, at the collection, on a webhook besides, and at its path. */
const manage = { scope: "webhooks:manage", tag } as const;
const collection = { ...manage, path: webhook.path } as const;
const onWebhook = { ...manage, errors: ["not_found" as const] };
const item = { ...onWebhook, path: webhook.itemPath, conditional: true } as const;

/** `5 seconds, 30 seconds, …, 10 hours and 10 hours`. */
const retrySchedule = new Intl.ListFormat("en-GB").format(durations.retryDelays.map(inWords));

/** A request header of a delivery, as the callback documents it. */
const deliveryHeader = (name: string, description: string, example: string) => ({
	name,
	in: "header" as const,
	required: true,
	description,
	schema: { type: "string" as const },
	example,
});

/** What a delivery looks like: OpenAPI 3.0 callbacks, on the operation that subscribes to them. */
const deliveries = {
	event: {
		"{$request.body#/url}": {
			post: {
				summary: "An event, delivered",
				description: `Signed per Standard Webhooks 1.0. A 2xx within ${inWords(durations.deliveryTimeout)} acknowledges it; anything else, a redirect included, is a failure. A failed attempt is retried after ${retrySchedule} (with jitter; a longer \`Retry-After\` on a 429 or 503 is honoured). An endpoint failing for ${inWords(durations.failingEndpoint)} without a success, or answering 410 Gone, is disabled. Delivery is at least once and in no guaranteed order: deduplicate on \`webhook-id\` and order by the event's \`id\`.`,
				parameters: [
					deliveryHeader(
						"webhook-id",
						"`evt_` and the event's id: the same for every attempt and replay of the event.",
						"evt_42",
					),
					deliveryHeader(
						"webhook-timestamp",
						"When this attempt was signed, in Unix seconds.",
						"1798016400",
					),
					deliveryHeader(
						"webhook-signature",
						`\`v1,\` and the base64 HMAC-SHA256 of \`id.timestamp.body\`, keyed by the bytes of the secret after \`whsec_\`. After a rotation, one per secret still signing (each rotated-out secret signs for ${inWords(durations.secretOverlap)}), space-separated, the newest first.`,
						"v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
					),
					deliveryHeader("user-agent", "Names the sender.", userAgent),
				],
				requestBody: {
					required: true,
					content: { "application/json": { schema: { $ref: "#/components/schemas/Event" } } },
				},
				// The receiver authenticates us by the signature, not by a scheme of the document.
				security: [],
				responses: {
					"2XX": { description: "Received: any 2xx acknowledges the event." },
					410: {
						description:
							"Gone: the webhook is disabled at once, and a `webhook.disabled` event recorded.",
					},
					default: {
						description: `Any other answer, or none within ${inWords(durations.deliveryTimeout)}, is a failure: the delivery is retried.`,
					},
				},
			},
		},
	},
};

export const listWebhooks = apiRoute({
	...collection,
	method: "get",
	operationId: "listWebhooks",
	summary: "List webhooks",
	description: "Every webhook with its delivery state, without its secret.",
	request: { query: z.object(pageQuery) },
	responses: { 200: { ...jsonContent(Webhooks, "A page of webhooks."), headers: linkHeader } },
});

export const createWebhook = apiRoute({
	...collection,
	method: "post",
	operationId: "createWebhook",
	idempotent: true,
	summary: "Add a webhook",
	description: `Subscribes a URL to event types. The answer holds the signing secret, shown this once. At most ${limits.webhooks} webhooks per client; a client sees and manages only its own (the root token, all). A replay (same \`Idempotency-Key\` and body) shows the secret again only while it is still the webhook's: once the secret has been rotated, or the webhook deleted (or the key that sealed the secret retired), the replay answers 410 \`gone\`.`,
	request: { body: jsonBody(NewWebhook, "The endpoint and what it receives.") },
	errors: ["webhook_limit", "gone"],
	callbacks: deliveries,
	responses: { 201: createdContent(CreatedWebhook, "The new webhook, with its secret.") },
});

export const getWebhook = apiRoute({
	...item,
	method: "get",
	operationId: "getWebhook",
	summary: "Find a webhook by id",
	description: "One webhook and its delivery state.",
	request: { params },
	responses: { 200: jsonContent(Webhook, "The webhook.") },
});

export const deleteWebhook = apiRoute({
	...item,
	method: "delete",
	operationId: "deleteWebhook",
	summary: "Delete a webhook",
	description: "Stops its deliveries, queued ones included.",
	request: { params },
	responses: { 204: { description: "Deleted." } },
});

export const updateWebhook = apiRoute({
	...item,
	method: "patch",
	operationId: "updateWebhook",
	summary: "Change a webhook",
	description:
		"Changes its URL or event types, or re-enables it (`disabled: false`): deliveries that were waiting resume at once, and events from while it was disabled can be replayed. Its delivery state is not part of its ETag.",
	request: { params, body: jsonBody(WebhookPatch, "The fields to change; at least one.") },
	responses: { 200: jsonContent(Webhook, "The changed webhook.") },
});

export const rotateWebhookSecret = apiRoute({
	...item,
	method: "post",
	path: `${webhook.itemPath}/rotate-secret`,
	operationId: "rotateWebhookSecret",
	summary: "Rotate a webhook's secret",
	description: `Answers a new signing secret, shown this once. Every secret it replaces keeps signing for ${inWords(durations.secretOverlap)} after its own rotation, so that receivers can switch over: a delivery carries one signature per such secret, the newest first.`,
	request: { params },
	responses: { 200: jsonContent(CreatedWebhook, "The webhook, with its new secret.") },
});

export const replayWebhook = apiRoute({
	...onWebhook,
	method: "post",
	path: `${webhook.itemPath}/replay`,
	operationId: "replayWebhook",
	summary: "Re-send a webhook's events",
	description:
		"Re-sends the events the webhook receives, from its creation on, whose id is greater than `after`, each from its first attempt. Accepted at once and worked through in the background; while the webhook is disabled, the replay waits for it.",
	request: { params, body: jsonBody(WebhookReplay, "Where to resume.") },
	responses: { 202: { description: "Accepted: the events will be sent." } },
});

export const listWebhookDeliveries = apiRoute({
	...onWebhook,
	method: "get",
	path: `${webhook.itemPath}/deliveries`,
	operationId: "listWebhookDeliveries",
	summary: "List a webhook's delivery attempts",
	description: `Its attempts of the last ${inWords(durations.eventRetention)}, newest first: which event, which attempt, what the endpoint answered and what became of the delivery.`,
	request: { params, query: z.object(pageQuery) },
	responses: {
		200: { ...jsonContent(WebhookDeliveries, "A page of attempts."), headers: linkHeader },
	},
});
