import { defineConfig } from "vitest/config";

// End-to-end tests in Node: a real `wrangler dev` and a real headless Chromium. Run by `npm run test:e2e`.
export default defineConfig({
	test: {
		root: import.meta.dirname,
		include: ["*.e2e.mjs"],
		testTimeout: 60_000,
		hookTimeout: 120_000,
	},
});
