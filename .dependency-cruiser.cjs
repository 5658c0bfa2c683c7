// The layers of src/, from the ground up: models ← db ← http ← webhooks ← resources ← the app; within webhooks,
// endpoint-config.ts ← secrets/ and outbox/ ← endpoint/ (the Durable Object, which uses them all).
// `npm run lint` fails on an import that points up, or on any cycle.

/** The app's own files at the top of src/ (the Worker, the app, its routers and the Cron), env.ts aside. */
const app = "^src/(?!env[.]ts$)[^/]+[.]ts$";

/**
 * The MCP endpoint (src/mcp/) and hosted agents' sign-in to it (src/oauth/): part of the app, above every resource,
 * since the tools are the app's operations.
 */
const mcp = "^src/(mcp|oauth)/";

/** No file of `from` imports a module of `to`. */
const below = (name, from, to) => ({
	name,
	severity: "error",
	from: { path: from },
	to: { path: to },
});

module.exports = {
	forbidden: [
		{ name: "no-circular", severity: "error", from: {}, to: { circular: true } },
		below("models-are-the-ground", "^src/models/", [
			"^src/(db|http|webhooks|resources)/",
			"^src/env[.]ts$",
			app,
			mcp,
		]),
		below("db-below-http", "^src/db/", [
			"^src/(http|webhooks|resources)/",
			"^src/env[.]ts$",
			app,
			mcp,
		]),
		below("env-below-http", "^src/env[.]ts$", ["^src/(http|webhooks|resources)/", app, mcp]),
		below("http-below-webhooks", "^src/http/", ["^src/(webhooks|resources)/", app, mcp]),
		// Resources use the webhooks module (endpoints, the outbox, secrets); it never reaches into a resource.
		below("webhooks-below-resources", "^src/webhooks/", ["^src/resources/", app, mcp]),
		// What an endpoint is configured with is read by every room of webhooks/, and reads none of them.
		below("endpoint-config-below-webhook-rooms", "^src/webhooks/endpoint-config[.]ts$", [
			"^src/webhooks/(endpoint|outbox|secrets)/",
		]),
		// The Durable Object reads the outbox and opens secrets; the sweep reaches it through its stub alone.
		below("outbox-below-endpoint", "^src/webhooks/outbox/", ["^src/webhooks/(endpoint|secrets)/"]),
		below("secrets-below-endpoint", "^src/webhooks/secrets/", ["^src/webhooks/(endpoint|outbox)/"]),
		// The public-host rules they share are src/http/public-hosts.ts: agents' sign-in needs no webhook.
		below("agents-apart-from-webhooks", mcp, ["^src/webhooks/"]),
		below("resources-below-app", "^src/resources/", [app, mcp]),
	],
	options: {
		doNotFollow: { path: "node_modules" },
		tsPreCompilationDeps: true,
		tsConfig: { fileName: "tsconfig.json" },
	},
};
