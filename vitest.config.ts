import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import type { Plugin } from "vite";
import { configDefaults, defineConfig } from "vitest/config";
import { raisedLimiters } from "./test/support/limiters.ts";
import { documentation, projectPaths, sources } from "./test/support/project.ts";

/**
 * Files that walk the document or the README over a fresh seed, change the Worker's env, or fill the database with
 * rows no write would store (10,000 pets, events without their resource): each runs in a runtime of its own, with a
 * database of its own.
 */
const ownRuntime = [
	"test/code-samples.test.ts",
	"test/contract.test.ts",
	"test/examples.test.ts",
	"test/list-bounds.test.ts",
	"test/readme.test.ts",
	"test/round-trips.test.ts",
	"test/name-keys.test.ts",
	"test/sessions.test.ts",
];

/** The secrets wrangler.toml requires, as the suite sets them. */
const secrets = {
	// Two tokens, as during a rotation, each long enough for production.
	API_TOKEN: "test-token-current-0123456789abcdef,test-token-next-0123456789abcdef0",
	CURSOR_SECRET: "test-cursor-secret",
	// Newest first: the second key stands for one a rotation replaced.
	WEBHOOK_SECRET_KEY:
		"test-webhook-secret-key-0123456789abcdef,test-previous-webhook-secret-key-0123456789",
};

// The Workers pool has wrangler read wrangler.toml once per test file. Wrangler then says where it found the
// required secrets, and, without a .dev.vars, that they are missing: it finds the suite's own in its environment
// (the bindings below set them for the Worker), and reports only warnings and errors.
Object.assign(process.env, secrets);
process.env.WRANGLER_LOG ??= "warn";

/**
 * Dependencies loaded without the source maps they ship, which name sources their packages leave out (Vite
 * warns once per file): a stack through a dependency names its built file.
 */
const withoutDependencySourceMaps: Plugin = {
	name: "without-dependency-source-maps",
	enforce: "pre",
	async load(id) {
		if (!/\/node_modules\/[^?]+\.[cm]?js$/.test(id)) return null;
		const code = await readFile(id, "utf8");
		return { code: code.replace(/\/\/# sourceMappingURL=\S+\s*$/, ""), map: null };
	},
};

export default defineConfig(async () => ({
	plugins: [
		withoutDependencySourceMaps,
		cloudflareTest({
			wrangler: { configPath: "./wrangler.toml" },
			miniflare: {
				// Read in Node, applied inside the runtime by test/setup/apply-migrations.ts.
				bindings: {
					TEST_MIGRATIONS: await readD1Migrations("./drizzle"),
					...secrets,
					WEBHOOKS_ALLOW_LOOPBACK: "true",
					// As deployed, whether or not `npm run dev` has written a .dev.vars, which wrangler reads.
					LOCAL_DEVELOPMENT: "false",
					// Runs per fuzz property: small in CI, larger on demand.
					FUZZ_RUNS: process.env.FUZZ_RUNS ?? "25",
					// test/readme.test.ts replays the README's examples against the seeded database.
					README: readFileSync("README.md", "utf8"),
					// test/docs.test.ts checks what the README and docs/ name against the project's files.
					DOCS: documentation(),
					PROJECT_PATHS: projectPaths(),
					SOURCES: sources(),
					SEED_SQL: readFileSync("src/db/seed.sql", "utf8"),
					// test/client.test.ts holds what `petstore-api/client` ships to the routes (`npm run client:build`).
					CLIENT_DECLARATIONS: readFileSync("dist/client.d.ts", "utf8"),
				},
				// A database without tables, beside DB: a statement that fails there fails as in production.
				d1Databases: { EMPTY_DB: "petstore-empty" },
				// Writes nudge a queue nothing consumes: tests run the consumer themselves (test/support/webhooks.ts).
				queueProducers: { WEBHOOK_QUEUE: { queueName: "test-webhooks" } },
				queueConsumers: {},
				ratelimits: {
					// The suite writes far more than a client may in production; test/security covers the limits.
					...raisedLimiters("./wrangler.toml"),
					TINY_LIMITER: { namespace_id: "1002", simple: { limit: 2, period: 60 } },
				},
			},
		}),
	],
	test: {
		setupFiles: ["./test/setup/apply-migrations.ts"],
		// Show logs (a 500 logs its error) only for the tests that fail.
		silent: "passed-only",
		projects: [
			// Most files make their own data and share a runtime and its database, one file after another: each
			// file's own runtime would cost more starting than its tests take.
			{
				extends: true,
				test: {
					name: "shared",
					include: ["test/**/*.test.ts"],
					exclude: [...configDefaults.exclude, ...ownRuntime],
					isolate: false,
				},
			},
			{ extends: true, test: { name: "own runtime", include: ownRuntime } },
		],
	},
}));
