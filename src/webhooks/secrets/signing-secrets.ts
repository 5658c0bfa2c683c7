import { log } from "../../http/log";
import type { EndpointConfig } from "../endpoint-config";
import { type KeyEnv, openSecret, orUnreadable } from "./secret-box";

/** A rotated-out secret, opened; none when no key opens it, since a rotation is how a client recovers from that. */
const openRetired = async (webhookId: number, sealed: string, env: KeyEnv) => {
	const opened = await orUnreadable(openSecret(sealed, env));
	if (typeof opened === "string") return [opened];
	log("warn", { webhookId, message: "a rotated-out secret cannot be opened and no longer signs" });
	return [];
};

/** The secrets that sign at `now`, opened, newest first; throws `UnreadableSecret` if the current one cannot. */
export const signingSecrets = async (
	{ webhookId, secrets: [current, ...retired] }: EndpointConfig,
	env: KeyEnv,
	now: number,
) => [
	await openSecret(current.secret, env),
	...(
		await Promise.all(
			retired
				.filter(({ expiresAt }) => expiresAt === null || expiresAt > now)
				.map(({ secret }) => openRetired(webhookId, secret, env)),
		)
	).flat(),
];
