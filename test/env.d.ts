declare namespace Cloudflare {
	interface Env {
		/** Defined in vitest.config.ts: the migrations under drizzle/, applied by test/setup. */
		TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
	}
	interface GlobalProps {
		/** Types `exports.default` from `cloudflare:workers` as the Worker under test. */
		mainModule: typeof import("../src/index");
	}
}
