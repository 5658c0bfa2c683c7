import { createRequire } from "node:module";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { raisedLimiters } from "../support/limiters";

/** The esbuild that wrangler bundles a Worker with: wrangler's own dependency, as `npm run deploy` runs it. */
const { build }: typeof import("esbuild") = createRequire(
	createRequire(import.meta.url).resolve("wrangler"),
)("esbuild");

// The in-runtime benchmark: run by `npm run bench`, never by `npm test`.

/**
 * sides.ts bundled as `npm run deploy` bundles a Worker (wrangler's esbuild options, and `--minify`), so
 * that both sides run as they would be deployed. Unbundled, Vite's module runner would serve each of the app's
 * hundred modules on its own, reaching every import through a getter, which a Worker never does.
 */
const bundledSides = async () => {
	// Beside wrangler's own builds, which .gitignore already leaves out.
	const outfile = `${import.meta.dirname}/../../.wrangler/bench/sides.js`;
	await build({
		entryPoints: [`${import.meta.dirname}/sides.ts`],
		outfile,
		bundle: true,
		format: "esm",
		target: "es2024",
		conditions: ["workerd", "worker", "browser"],
		external: ["cloudflare:*"],
		keepNames: true,
		minify: true,
		sourcemap: "inline",
		define: { "process.env.NODE_ENV": '"production"' },
		logLevel: "error",
	});
	return outfile;
};

export default defineConfig(async () => ({
	resolve: {
		// runtime.bench.ts's import of sides.ts, and no other.
		alias: [{ find: /^\.\/sides$/, replacement: await bundledSides() }],
	},
	plugins: [
		cloudflareTest({
			wrangler: { configPath: `${import.meta.dirname}/../../wrangler.toml` },
			miniflare: {
				bindings: {
					TEST_MIGRATIONS: await readD1Migrations(`${import.meta.dirname}/../../drizzle`),
					// Long enough for production, which the bench stands for.
					API_TOKEN: "bench-token-0123456789abcdef0123456789",
					CURSOR_SECRET: "bench-cursor-secret",
					// background.bench.ts creates webhooks, whose secrets are sealed under this key.
					WEBHOOK_SECRET_KEY: "bench-webhook-secret-key-0123456789abcdef",
					BENCH_REQUESTS: process.env.BENCH_REQUESTS ?? "200",
				},
				// Writes nudge a queue nothing consumes: the benchmark times the request, not the deliveries.
				queueProducers: { WEBHOOK_QUEUE: { queueName: "bench-webhooks" } },
				ratelimits: raisedLimiters(`${import.meta.dirname}/../../wrangler.toml`),
			},
		}),
	],
	test: {
		root: import.meta.dirname,
		// test/bench/webhooks.mjs runs background.bench.ts through this config alone.
		include: [process.env.BENCH_FILE ?? "runtime.bench.ts"],
		setupFiles: ["../setup/apply-migrations.ts"],
		// Only the result line: both sides log every request.
		onConsoleLog: (log: string) =>
			log.startsWith("BENCH ") || log.startsWith("WEBHOOKS ") || log.startsWith("MCP "),
		testTimeout: 300_000,
	},
}));
