import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { webhooks } from "../../db/schema";
import { ApiError } from "../../models/error";
import { type KeyEnv, openSecret, orUnreadable, UnreadableSecret } from "./secret-box";

/**
 * The secret a keyed replay of `createWebhook` answers: the stored one, opened, while the webhook still signs with
 * it; 410 once it was rotated, the webhook deleted, or the key that sealed it retired.
 */
export const replayedSecret = async (db: Db, env: KeyEnv, webhookId: number, stored: string) => {
	const row = await db
		.select({ secret: webhooks.secret })
		.from(webhooks)
		.where(eq(webhooks.id, webhookId))
		.get();
	// Compared opened: re-sealing under a newer key changes the stored value, not the secret.
	const opened =
		row &&
		(await orUnreadable(Promise.all([openSecret(stored, env), openSecret(row.secret, env)])));
	if (Array.isArray(opened) && opened[0] === opened[1]) return opened[0];
	throw new ApiError(
		"gone",
		row === undefined
			? `Webhook ${webhookId}, which this key created, has been deleted: its secret is no longer shown.`
			: opened instanceof UnreadableSecret
				? `The secret of webhook ${webhookId} can no longer be opened (the key that sealed it was retired): rotate-secret answers a new one.`
				: `The secret of webhook ${webhookId}, which this key created, has been rotated since: a secret is shown once.`,
	);
};
