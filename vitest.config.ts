import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig(async () => ({
	plugins: [
		cloudflareTest({
			wrangler: { configPath: "./wrangler.toml" },
			miniflare: {
				// Read in Node, applied inside the runtime by test/setup/apply-migrations.ts.
				bindings: { TEST_MIGRATIONS: await readD1Migrations("./drizzle") },
			},
		}),
	],
	test: {
		include: ["test/**/*.test.ts"],
		setupFiles: ["./test/setup/apply-migrations.ts"],
	},
}));
