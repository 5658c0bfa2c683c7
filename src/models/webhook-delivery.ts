import { z } from "@hono/zod-openapi";
import { Id } from "./id";
import { durations, inWords, limits } from "./limits";

/** Names the sender of deliveries in receivers' logs and firewalls. */
export const userAgent = "Petstore-Webhooks/1.0";

/** What became of an attempt: the delivery it belongs to is done, retried later, or waits for its endpoint. */
const deliveryOutcomes = ["delivered", "retrying", "exhausted", "disabled", "held"] as const;

export type DeliveryOutcome = (typeof deliveryOutcomes)[number];

const count = z.int().min(0);

/** One attempt to deliver one event to a webhook, as its attempt log keeps it. */
export const WebhookDelivery = z
	.object({
		id: Id.openapi({ description: "Increases with every attempt." }),
		eventId: Id,
		attempt: count.openapi({
			description:
				"1 for the first try; 0 for an event that arrived while the webhook was disabled.",
		}),
		status: count
			.max(599)
			.openapi({
				description: `The HTTP status answered; 0 when none came within ${inWords(durations.deliveryTimeout)}, or nothing was sent.`,
			}),
		durationMs: count,
		error: z
			.string()
			.nullable()
			.openapi({ description: "Why the attempt failed; null when it succeeded." }),
		outcome: z
			.enum(deliveryOutcomes)
			.openapi({
				description: `\`delivered\` (a 2xx); \`retrying\` at \`nextAttemptAt\`; \`exhausted\`: the last of ${durations.retryDelays.length + 1} attempts failed, and the event is not sent again unless replayed; \`disabled\`: this failure disabled the webhook, and the delivery waits for it to be re-enabled; \`held\`: the event arrived while the webhook was disabled, and is sent once it is re-enabled (nothing was attempted).`,
			}),
		nextAttemptAt: z.string().nullable().openapi({ format: "date-time" }),
		attemptedAt: z.string().openapi({ format: "date-time" }),
	})
	.openapi("WebhookDelivery", {
		example: {
			id: 1,
			eventId: 42,
			attempt: 2,
			status: 503,
			durationMs: 87,
			error: "answered 503",
			outcome: "retrying",
			nextAttemptAt: "2026-12-24T09:00:36.000Z",
			attemptedAt: "2026-12-24T09:00:05.000Z",
		},
	});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveries = z.array(WebhookDelivery).openapi("WebhookDeliveries");

/** The body of `replayWebhook`: the event id to resume after (0 for every event still kept). */
export const WebhookReplay = z
	.strictObject({
		after: count
			.max(limits.maxId)
			.openapi({
				format: "int64",
				description:
					"Re-send the subscribed events with a greater id: the `webhook-id` (`evt_<id>`) of the last event the receiver holds.",
			}),
	})
	.openapi("WebhookReplay", { example: { after: 41 } });

/** A webhook's state: whether it is disabled, and what its deliveries came to (which never changes its ETag). */
export const deliveryState = {
	disabled: z
		.boolean()
		.openapi({
			description: `Set after ${inWords(durations.failingEndpoint)} of failed deliveries without a success, or at once when the endpoint answers 410 Gone (recording a \`webhook.disabled\` event); it then gets nothing until \`updateWebhook\` sets it back to false.`,
		}),
	failures: count.openapi({
		description:
			"Failed delivery attempts since the last success. Delivery state: it never changes the ETag.",
	}),
	lastStatus: z
		.int()
		.nullable()
		.openapi({
			description: `The HTTP status of the last attempt; 0 when none came back within ${inWords(durations.deliveryTimeout)}; null before the first.`,
		}),
	lastAttemptAt: z.string().nullable().openapi({ format: "date-time" }),
};

/** What the event feed says of a webhook (`webhook.disabled`): never its URL (often a capability), types or secret. */
export const WebhookState = z
	.object({ id: Id, ...deliveryState })
	.openapi("WebhookState", {
		example: {
			id: 1,
			disabled: true,
			failures: 12,
			lastStatus: 410,
			lastAttemptAt: "2026-12-24T09:00:01.000Z",
		},
	});
