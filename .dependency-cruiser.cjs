// The layers of src/, from the ground up: models ← db ← http ← webhooks ← resources ← the app.
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
		// Resources use the webhooks module (delivery, secrets, URL rules); it never reaches into a resource.
		below("webhooks-below-resources", "^src/webhooks/", ["^src/resources/", app, mcp]),
		below("resources-below-app", "^src/resources/", [app, mcp]),
	],
	options: {
		doNotFollow: { path: "node_modules" },
		tsPreCompilationDeps: true,
		tsConfig: { fileName: "tsconfig.json" },
	},
};
