import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { webhooks } from "../../db/schema";
import { ApiError } from "../../models/error";
import { type KeyEnv, openSecret, orUnreadable, UnreadableSecret } from "./secret-box";

// A keyed replay of `createWebhook` shows the secret again only while it is still what the webhook signs with:
// never one a rotation replaced, nor one of a deleted webhook.

const gone = (detail: string) => new ApiError("gone", detail);

/** The secret a replay of `createWebhook` answers: the stored one, opened, if the webhook still has it; else 410. */
export const replayedSecret = async (db: Db, env: KeyEnv, webhookId: number, stored: string) => {
	const row = await db
		.select({ secret: webhooks.secret })
		.from(webhooks)
		.where(eq(webhooks.id, webhookId))
		.get();
	if (row === undefined) {
		throw gone(
			`Webhook ${webhookId}, which this key created, has been deleted: its secret is no longer shown.`,
		);
	}
	// Compared opened: re-sealing under a newer key changes the stored value, not the secret.
	const opened = await orUnreadable(
		Promise.all([openSecret(stored, env), openSecret(row.secret, env)]),
	);
	if (opened instanceof UnreadableSecret) {
		throw gone(
			`The secret of webhook ${webhookId} can no longer be opened (the key that sealed it was retired): rotate-secret answers a new one.`,
		);
	}
	const [replayed, current] = opened;
	if (replayed === current) return replayed;
	throw gone(
		`The secret of webhook ${webhookId}, which this key created, has been rotated since: a secret is shown once.`,
	);
};
