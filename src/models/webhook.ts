import { z } from "@hono/zod-openapi";
import { EventType, eventTypes } from "./event-types";
import { Id } from "./id";
import { limits } from "./limits";
import { deliveryState } from "./webhook-delivery";

/** The rules of src/http/public-hosts.ts, as the document states them. */
const webhookUrlRules = `An https URL on port 443, at most ${limits.webhookUrl} characters, stored and answered normalised (\`new URL(url).href\`). Refused: control characters and whitespace, credentials, and hosts that are not public: loopback, private, link-local, shared (CGNAT), unique-local, site-local, unspecified, multicast, documentation and reserved IP literals in any spelling (IPv4-mapped and other IPv4-embedding IPv6 forms included), \`localhost\`, \`*.localhost\`, \`*.local\`, \`*.internal\`, \`*.home.arpa\` and any name without a public suffix (the Public Suffix List decides), trailing dots stripped first. Deliveries go to a name only while it resolves to public addresses. Plain http, and loopback hosts on any port, only in local development (\`WEBHOOKS_ALLOW_LOOPBACK\`).`;

// The rules need the environment (local development may use loopback), so the operations check them.
const WebhookUrl = z
	.string()
	.max(limits.webhookUrl)
	.openapi({ description: webhookUrlRules, example: "https://shop.example.com/hooks/petstore" });

export const NewWebhook = z
	.strictObject({
		url: WebhookUrl,
		events: z
			.array(EventType)
			.min(1)
			.max(eventTypes.length)
			.refine((types) => new Set(types).size === types.length, "must not repeat a type")
			.openapi({ description: "The event types it receives." }),
	})
	.openapi("NewWebhook", {
		example: {
			url: "https://shop.example.com/hooks/petstore",
			events: ["order.placed", "order.completed", "order.cancelled"],
		},
	});
export type NewWebhook = z.infer<typeof NewWebhook>;

/** The fields `updateWebhook` changes: any of the new webhook's, and `disabled`. */
export const WebhookPatch = NewWebhook.partial()
	.extend({
		disabled: z
			.boolean()
			.optional()
			.openapi({
				description:
					"`false` re-enables a disabled webhook: deliveries that were waiting resume at once. `true` stops its deliveries.",
			}),
	})
	.refine((patch) => Object.keys(patch).length > 0, "must change at least one field")
	.openapi("WebhookPatch", { minProperties: 1, example: { disabled: false } });
export type WebhookPatch = z.infer<typeof WebhookPatch>;

const example = {
	id: 1,
	url: "https://shop.example.com/hooks/petstore",
	events: ["order.placed", "order.completed", "order.cancelled"],
	createdAt: "2026-12-24T09:00:00.000Z",
	disabled: false,
	failures: 0,
	lastStatus: 200,
	lastAttemptAt: "2026-12-24T09:00:01.000Z",
};

const fields = {
	id: Id,
	url: z.string().openapi({ description: "Normalised as stored (`new URL(url).href`)." }),
	events: z.array(EventType),
	createdAt: z.string().openapi({ format: "date-time" }),
	...deliveryState,
};

/** A webhook and its delivery state, without its secret. */
export const Webhook = z.object(fields).openapi("Webhook", { example });
export type Webhook = z.infer<typeof Webhook>;

export const Webhooks = z.array(Webhook).openapi("Webhooks");

/** A new webhook, with the secret that signs its deliveries: shown this once. */
export const CreatedWebhook = z
	.object({
		...fields,
		secret: z
			.string()
			.regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
			.openapi({
				description: "Verifies deliveries (Standard Webhooks); shown only in this response.",
			}),
	})
	.openapi("CreatedWebhook", {
		example: {
			...example,
			secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
			lastStatus: null,
			lastAttemptAt: null,
		},
	});

/** What a webhook's Durable Object knows of its deliveries: never part of the webhook's ETag. */
export type DeliveryState = Pick<Webhook, "failures" | "lastStatus" | "lastAttemptAt">;
