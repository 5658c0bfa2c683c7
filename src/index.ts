import { createApp } from "./app";
import { consume, type WebhookMessage } from "./events/queue";
import { scheduled } from "./scheduled";

export default {
	fetch: createApp().fetch,
	scheduled,
	queue: (batch, env) => consume(batch, env, Date.now),
} satisfies ExportedHandler<Env, WebhookMessage>;
