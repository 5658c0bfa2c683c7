import { createApp } from "./app";
import { consume } from "./events/consumer";
import type { WebhookMessage } from "./events/nudge";
import { scheduled } from "./scheduled";

export { WebhookEndpoint } from "./events/endpoint";

export default {
	fetch: createApp().fetch,
	scheduled,
	queue: (batch, env) => consume(batch, env, Date.now()),
} satisfies ExportedHandler<Env, WebhookMessage>;
