import { and, count, eq, gt, lt, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import {
	autoId,
	bump,
	etagOf,
	foundOr,
	matchesETag,
	oneRow,
	probe,
	rowState,
	unchanged,
} from "../../db/conditional";
import { webhooks } from "../../db/schema";
import type { DeliveryState } from "../../events/endpoint";
import { configOf, endpointColumns } from "../../events/endpoint-config";
import { recordEvent } from "../../events/record";
import type { EventType } from "../../events/types";
import { ApiError } from "../../http/errors";
import type { Page } from "../../http/pagination";
import type { Webhook, WebhookPatch } from "../../models/webhook";

/** How many webhooks may exist at once. */
const maxWebhooks = 20;

/** How long a rotated-out secret keeps signing beside the new one. */
const rotationOverlapMs = 24 * 60 * 60 * 1000;

/** A webhook as D1 holds it; its delivery state comes from its Durable Object. */
const webhook = {
	id: webhooks.id,
	url: webhooks.url,
	events: webhooks.events,
	createdAt: webhooks.createdAt,
	disabled: webhooks.disabled,
};
const webhookETag = etagOf(webhooks.version);

const withETag = { ...webhook, etag: webhookETag };
const withEndpoint = { ...withETag, ...endpointColumns };

type StoredWebhook = Omit<Webhook, keyof DeliveryState>;

const webhookNotFound = (id: number) =>
	new ApiError("not_found", `Webhook ${id} does not exist.`);

const webhookPath = sql`'/webhooks/' || ${webhooks.id}`;

export const listWebhooks = (db: Db, page: Page): Promise<StoredWebhook[]> =>
	db
		.select(webhook)
		.from(webhooks)
		.where(gt(webhooks.id, page.after))
		.orderBy(webhooks.id)
		.limit(page.limit + 1);

const readEndpoint = (db: Db, id: number) =>
	foundOr(
		db.select(withEndpoint).from(webhooks).where(eq(webhooks.id, id)).get(),
		() => webhookNotFound(id),
	);

/**
 * A webhook read with its endpoint's columns, split in two: the webhook as the API answers it (with its
 * ETag), and the config its Durable Object delivers with (secrets included: never answered).
 */
const split = ({
	id,
	url,
	events,
	createdAt,
	disabled,
	etag,
	...endpoint
}: Awaited<ReturnType<typeof readEndpoint>>) => ({
	webhook: { id, url, events, createdAt, disabled, etag },
	config: configOf({ id, url, ...endpoint }),
});

export const getWebhook = (db: Db, id: number) =>
	foundOr(
		db.select(withETag).from(webhooks).where(eq(webhooks.id, id)).get(),
		() => webhookNotFound(id),
	);

/** The webhook and its endpoint's config. */
export const getEndpoint = async (db: Db, id: number) =>
	split(await readEndpoint(db, id));

/** Stores the webhook with its secret unless there are already {@link maxWebhooks}. */
export const createWebhook = async (
	db: Db,
	fields: { url: string; events: EventType[]; secret: string },
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
					previousSecret: sql`NULL`.as("previous_secret"),
					previousSecretExpiresAt: sql`NULL`.as("previous_secret_expires_at"),
					createdAt: sql`${new Date(now).toISOString()}`.as("created_at"),
					disabled: sql`0`.as("disabled"),
					version: sql`1`.as("version"),
				})
				.from(oneRow)
				.where(lt(db.select({ n: count() }).from(webhooks), maxWebhooks)),
		)
		.returning({ ...withETag, secret: webhooks.secret });
	if (!row) {
		throw new ApiError(
			"webhook_limit",
			`There are already ${maxWebhooks} webhooks; delete one first.`,
		);
	}
	return row;
};

/** Changes the webhook unless it changed since `If-Match`; answers it and its endpoint's new config. */
const changeWebhook = async (
	db: Db,
	id: number,
	set: SQLiteUpdateSetSource<typeof webhooks>,
	ifMatch: string[] | undefined,
) => {
	const current = matchesETag(webhookETag, ifMatch);
	const [[state], [row]] = await db.batch([
		probe(db, rowState(webhooks, eq(webhooks.id, id), current)),
		db
			.update(webhooks)
			.set({ ...set, version: bump(webhooks.version) })
			.where(and(eq(webhooks.id, id), current))
			.returning(withEndpoint),
	]);
	if (!row) throw unchanged(state, webhookNotFound(id));
	return split(row);
};

/** Applies `updateWebhook`'s changes. */
export const updateWebhook = (
	db: Db,
	id: number,
	patch: WebhookPatch,
	ifMatch: string[] | undefined,
) => changeWebhook(db, id, patch, ifMatch);

/** Replaces the secret with `secret`; the old one keeps signing for a day. */
export const rotateWebhookSecret = (
	db: Db,
	id: number,
	secret: string,
	ifMatch: string[] | undefined,
	now: number,
) =>
	changeWebhook(
		db,
		id,
		{
			secret,
			previousSecret: webhooks.secret,
			previousSecretExpiresAt: now + rotationOverlapMs,
		},
		ifMatch,
	);

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
	if (deleted.length === 0) throw unchanged(state, webhookNotFound(id));
};

/**
 * Disables the webhook for its failed deliveries, with its `webhook.disabled` event in the same batch; the
 * event carries the webhook as `getWebhook` answers it, `delivery` being its endpoint's state. Delivery state:
 * the ETag stays.
 */
export const disableWebhook = async (
	db: Db,
	id: number,
	delivery: DeliveryState,
	now: number,
) => {
	await db.batch([
		db
			.update(webhooks)
			.set({ disabled: true })
			.where(and(eq(webhooks.id, id), eq(webhooks.disabled, false))),
		recordEvent(db, {
			type: "webhook.disabled",
			subject: webhookPath,
			data: sql`json_object('id', ${webhooks.id}, 'url', ${webhooks.url}, 'events', json(${webhooks.events}), 'createdAt', ${webhooks.createdAt}, 'disabled', json('true'), 'failures', ${delivery.failures}, 'lastStatus', ${delivery.lastStatus}, 'lastAttemptAt', ${delivery.lastAttemptAt})`,
			source: webhooks,
			where: eq(webhooks.id, id),
			now,
		}),
	]);
};
