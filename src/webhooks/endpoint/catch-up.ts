import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Db } from "../../db/client";
import { webhooks } from "../../db/schema";
import { configOf, type EndpointConfig, endpointColumns, endpointOf } from "../endpoint-config";
import { orUnreadable, resealSecret } from "../secrets/secret-box";

/** The config re-sealed under the newest key, once D1 stored it (not if the webhook changed since); else undefined. */
const reseal = async (db: Db, config: EndpointConfig, env: Env) => {
	const secrets = await Promise.all(
		config.secrets.map(async (entry) => {
			// A secret no key opens stays: its webhook shows it.
			const secret = await orUnreadable(resealSecret(entry.secret, env));
			return typeof secret === "string" ? { ...entry, secret } : entry;
		}),
	);
	if (secrets.every((entry, index) => entry === config.secrets[index])) return;
	const [current, ...retired] = secrets;
	const stored = await db
		.update(webhooks)
		.set({
			secret: current.secret,
			retiredSecrets: retired.flatMap(({ secret, expiresAt }) =>
				expiresAt === null ? [] : [{ secret, expiresAt }],
			),
		})
		.where(and(eq(webhooks.id, config.webhookId), eq(webhooks.version, config.version)))
		.returning({ id: webhooks.id });
	return stored.length > 0 ? { ...config, secrets } : undefined;
};

/** Brings each Durable Object up to its webhook's D1 row; re-seals what an older key sealed, so that key can go. */
export const catchUpEndpoints = async (env: Env, now: number) => {
	const db = drizzle(env.DB);
	const rows = await db.select({ ...endpointColumns, disabled: webhooks.disabled }).from(webhooks);
	await Promise.allSettled(
		rows.map(async (row) => {
			const endpoint = endpointOf(env, row.id);
			const config = configOf(row);
			// Either may fail alone; the re-sealed secrets go last, so that the catch-up cannot replace them.
			const [resealed] = await Promise.all([
				reseal(db, config, env),
				endpoint.catchUp(config, row.disabled, now),
			]);
			if (resealed) await endpoint.configure(resealed, now);
		}),
	);
};
