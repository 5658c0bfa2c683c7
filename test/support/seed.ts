import { env } from "cloudflare:workers";

/** Seeds the test database as a first `npm run dev` does: src/db/seed.sql over the migrated schema. */
export const seedAsDev = async () => {
	const statements = env.SEED_SQL.split(/;\s*$/m)
		.map((statement) => statement.replace(/^--.*$/gm, "").trim())
		.filter(Boolean);
	await env.DB.batch(statements.map((statement) => env.DB.prepare(statement)));
};
