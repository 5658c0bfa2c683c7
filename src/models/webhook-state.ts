import { z } from "@hono/zod-openapi";
import { Id } from "./id";
import { durations, inWords } from "./limits";

/** A webhook's state: whether it is disabled, and what its deliveries came to (which never changes its ETag). */
export const deliveryState = {
	disabled: z
		.boolean()
		.openapi({
			description: `Set after ${inWords(durations.failingEndpoint)} of failed deliveries without a success, or at once when the endpoint answers 410 Gone (recording a \`webhook.disabled\` event); it then gets nothing until \`updateWebhook\` sets it back to false.`,
		}),
	failures: z
		.int()
		.min(0)
		.openapi({
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
