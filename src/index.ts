import { createApp } from "./app";
import { scheduled } from "./scheduled";
import { consume } from "./webhooks/consumer";
import type { WebhookMessage } from "./webhooks/nudge";

export { WebhookEndpoint } from "./webhooks/endpoint";

const app = createApp();

export default {
	fetch: app.fetch,
	scheduled,
	queue: (batch, env) => consume(batch, env, Date.now()),
} satisfies ExportedHandler<Env, WebhookMessage>;
