import { createApp } from "./app";
import { scheduled } from "./scheduled";
import { consume } from "./webhooks/outbox/events";
import type { WebhookMessage } from "./webhooks/outbox/nudge";

export { WebhookEndpoint } from "./webhooks/endpoint/durable-object";

export default {
	fetch: createApp().fetch,
	scheduled,
	queue: (batch, env) => consume(batch, env, Date.now()),
} satisfies ExportedHandler<Env, WebhookMessage>;
