declare namespace Cloudflare {
	interface Env {
		/** Defined in vitest.config.ts: the migrations under drizzle/, applied by test/setup. */
		TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
		/** Defined in test/bench/vitest.config.ts: requests per timed benchmark run. */
		BENCH_REQUESTS: string;
		/** Defined in vitest.config.ts: the README and the local seed, for test/readme.test.ts. */
		README: string;
		/** Defined in vitest.config.ts: the README and docs/*.md by path, and every path of the project. */
		DOCS: Record<string, string>;
		/** Defined in vitest.config.ts: the source files of src, scripts and test, by path. */
		SOURCES: Record<string, string>;
		PROJECT_PATHS: string[];
		SEED_SQL: string;
		/** Defined in vitest.config.ts: dist/client.d.ts, what `petstore-api/client` ships. */
		CLIENT_DECLARATIONS: string;
		/** Defined in vitest.config.ts: runs per fuzz property. */
		FUZZ_RUNS: string;
		/** Defined in vitest.config.ts: a D1 database with no tables, where every statement fails. */
		EMPTY_DB: D1Database;
		/** Defined in vitest.config.ts: a limiter that allows two writes a minute. */
		TINY_LIMITER: RateLimit;
	}
}
