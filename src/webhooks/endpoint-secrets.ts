import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { webhooks } from "../db/schema";
import { log } from "../http/log";
import type { EndpointConfig } from "./endpoints";
import { openAndReseal, UnreadableSecret } from "./secret-box";

// The secrets an endpoint signs with, opened when it signs; those an older key sealed are sealed again under the
// newest one and written back, so that the older key can be dropped.

type KeyEnv = Pick<Env, "WEBHOOK_SECRET_KEY">;
type Opened = Awaited<ReturnType<typeof openAndReseal>> & {
	secret: string;
	expiresAt: number | null;
};

/**
 * A rotated-out secret, opened; none when no key opens it: the secret that replaced it still signs, and the
 * rotation that replaced it is how a client recovers from an unreadable secret, so it must not keep failing.
 */
const openRetired = async (
	webhookId: number,
	{ secret, expiresAt }: EndpointConfig["secrets"][number],
	env: KeyEnv,
): Promise<Opened[]> => {
	try {
		return [{ ...(await openAndReseal(secret, env)), secret, expiresAt }];
	} catch (error) {
		if (!(error instanceof UnreadableSecret)) throw error;
		log("warn", {
			webhookId,
			message: "a rotated-out secret cannot be opened and no longer signs",
		});
		return [];
	}
};

/**
 * The secrets that sign at `now`, opened, newest first; with `resealed`, the config with every one of them
 * sealed under the newest key when an older key sealed any. Throws `UnreadableSecret` when the current secret
 * cannot be opened.
 */
export const signingSecrets = async (
	config: EndpointConfig,
	env: KeyEnv,
	now: number,
) => {
	const [current, ...retired] = config.secrets;
	const opened: Opened[] = [
		{ ...(await openAndReseal(current.secret, env)), ...current },
		...(
			await Promise.all(
				retired
					.filter(({ expiresAt }) => expiresAt === null || expiresAt > now)
					.map((secret) => openRetired(config.webhookId, secret, env)),
			)
		).flat(),
	];
	const plain = opened.map(({ plain }) => plain);
	if (opened.every(({ resealed }) => resealed === undefined)) return { plain };
	const resealed: EndpointConfig = {
		...config,
		secrets: opened.map(({ secret, resealed, expiresAt }) => ({
			secret: resealed ?? secret,
			expiresAt,
		})),
	};
	return { plain, resealed };
};

/**
 * Stores re-sealed secrets in D1, unless the webhook changed since `config` was read (a rotation, an update or its
 * deletion: the next config carries its own secrets). Answers whether D1 took them.
 */
export const storeResealed = async (db: D1Database, config: EndpointConfig) => {
	const [current, ...retired] = config.secrets;
	const changed = await drizzle(db)
		.update(webhooks)
		.set({
			secret: current.secret,
			retiredSecrets: retired.flatMap(({ secret, expiresAt }) =>
				expiresAt === null ? [] : [{ secret, expiresAt }],
			),
		})
		.where(
			and(
				eq(webhooks.id, config.webhookId),
				eq(webhooks.version, config.version),
			),
		)
		.returning({ id: webhooks.id });
	return changed.length > 0;
};
