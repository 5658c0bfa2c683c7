import { and, count, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
	autoId,
	matchesETag,
	oneRow,
	probe,
	rowState,
	whyUnchanged,
} from "../../db/conditional";
import { webhooks } from "../../db/schema";
import type { SealedSecret } from "../../db/secret-box";
import { ApiError } from "../../http/errors";
import { found, refusal } from "../../http/outcomes";
import type { Page } from "../../http/pagination";
import type { EventType } from "../../models/event-types";
import { limits } from "../../models/limits";
import type { Webhook } from "../../models/webhook";

const webhook = {
	id: webhooks.id,
	url: webhooks.url,
	events: webhooks.events,
	createdAt: webhooks.createdAt,
	disabled: webhooks.disabled,
	failures: webhooks.failures,
	lastStatus: webhooks.lastStatus,
	lastAttemptAt: webhooks.lastAttemptAt,
};
const webhookETag = sql<string>`'"' || ${webhooks.version} || '"'`;

const webhookNotFound = (id: number) =>
	new ApiError("not_found", `Webhook ${id} does not exist.`);

export const listWebhooks = (db: Db, page: Page): Promise<Webhook[]> =>
	db
		.select(webhook)
		.from(webhooks)
		.where(gt(webhooks.id, page.after))
		.orderBy(webhooks.id)
		.limit(page.limit + 1);

export const getWebhook = (
	db: Db,
	id: number,
): Promise<Webhook & { etag: string }> =>
	found(
		db
			.select({ ...webhook, etag: webhookETag })
			.from(webhooks)
			.where(eq(webhooks.id, id))
			.get(),
		() => webhookNotFound(id),
	);

/** Stores the webhook with its sealed secret unless there are already `limits.webhooks`. */
export const createWebhook = async (
	db: Db,
	fields: { url: string; events: EventType[]; secret: SealedSecret },
	now: number,
) => {
	// INSERT … SELECT: the count and the insert are one statement, so two creations cannot both pass it.
	const [row] = await db
		.insert(webhooks)
		.select(
			db
				.select({
					id: autoId,
					url: sql`${fields.url}`.as("url"),
					events: sql`${JSON.stringify(fields.events)}`.as("events"),
					secret: sql`${fields.secret}`.as("secret"),
					createdAt: sql`${new Date(now).toISOString()}`.as("created_at"),
					failures: sql`0`.as("failures"),
					lastStatus: sql`NULL`.as("last_status"),
					lastAttemptAt: sql`NULL`.as("last_attempt_at"),
					disabled: sql`0`.as("disabled"),
					version: sql`1`.as("version"),
				})
				.from(oneRow)
				.where(lt(db.select({ n: count() }).from(webhooks), limits.webhooks)),
		)
		.returning({ ...webhook, etag: webhookETag });
	if (!row) {
		throw new ApiError("webhook_limit");
	}
	return row;
};

/** Deletes the webhook unless it changed since `If-Match`. */
export const deleteWebhook = async (
	db: Db,
	id: number,
	ifMatch: string[] | undefined,
): Promise<void> => {
	const current = matchesETag(webhookETag, ifMatch);
	const [[state], deleted] = await db.batch([
		probe(db, rowState(webhooks, eq(webhooks.id, id), current)),
		db
			.delete(webhooks)
			.where(and(eq(webhooks.id, id), current))
			.returning({ id: webhooks.id }),
	]);
	if (deleted.length === 0)
		throw refusal(whyUnchanged(state), webhookNotFound(id));
};
