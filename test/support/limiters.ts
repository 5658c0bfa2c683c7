import { unstable_readConfig } from "wrangler";

type Limiter = { name: string; namespace_id: string; simple: { limit: number; period?: 10 | 60 } };

/**
 * Every Rate Limiting binding of the wrangler config at `configPath`, raised so far that the suite or the bench
 * never meets it: a binding added there is here too (test/security.test.ts covers the real budgets).
 */
export const raisedLimiters = (configPath: string) =>
	Object.fromEntries(
		(unstable_readConfig({ config: configPath }).ratelimits as Limiter[]).map(
			({ name, namespace_id, simple }) => [
				name,
				{ namespace_id, simple: { ...simple, limit: 1_000_000 } },
			],
		),
	);
