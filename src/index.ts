import { createApp } from "./app";
import { oauthPaths, serveOAuth, servesOAuth } from "./oauth/server";
import { scheduled } from "./scheduled";
import { consume } from "./webhooks/consumer";
import type { WebhookMessage } from "./webhooks/nudge";

export { WebhookEndpoint } from "./webhooks/endpoint";

const app = createApp();
/** The authorization server's own endpoints, which the OAuth library serves. */
const libraryPaths = new Set([oauthPaths.token, oauthPaths.register, oauthPaths.serverMetadata]);

export default {
	fetch: (request, env, ctx) => {
		const { pathname, origin } = new URL(request.url);
		return libraryPaths.has(pathname) && servesOAuth(origin)
			? serveOAuth(request, env, ctx)
			: app.fetch(request, env, ctx);
	},
	scheduled,
	queue: (batch, env) => consume(batch, env, Date.now()),
} satisfies ExportedHandler<Env, WebhookMessage>;
