import { and, count, eq, gt, lt, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { chain, write } from "../../db/batch";
import type { Db } from "../../db/client";
import {
	autoId,
	bump,
	matchesETag,
	oneRow,
	probe,
	rowState,
	whyUnchanged,
} from "../../db/conditional";
import type { Slot } from "../../db/prepared";
import { webhook } from "../../db/resources";
import { webhooks } from "../../db/schema";
import { ApiError } from "../../http/errors";
import {
	createdOrStored,
	type Keyed,
	keyedCreate,
} from "../../http/idempotency";
import { found, refusal } from "../../http/outcomes";
import type { Page } from "../../http/pagination";
import type { EventType } from "../../models/event-types";
import { durations, limits } from "../../models/limits";
import type { WebhookPatch } from "../../models/webhook";
import { configOf, endpointColumns, retiring } from "../../webhooks/endpoints";
import type { SealedSecret } from "../../webhooks/secret-box";

/** A webhook with its endpoint's columns: what a change answers, and what its Durable Object is told. */
const withEndpoint = { ...webhook.tagged, ...endpointColumns };

const webhookNotFound = (id: number) =>
	new ApiError("not_found", `Webhook ${id} does not exist.`);

export const listWebhooks = (db: Db, page: Page) =>
	db
		.select(webhook.projection)
		.from(webhooks)
		.where(gt(webhooks.id, page.after))
		.orderBy(webhooks.id)
		.limit(page.limit + 1);

export const getWebhook = (db: Db, id: number) =>
	found(webhook.find(db, id), () => webhookNotFound(id));

const readEndpoint = (db: Db, id: number) =>
	found(
		db.select(withEndpoint).from(webhooks).where(eq(webhooks.id, id)).get(),
		() => webhookNotFound(id),
	);

/**
 * A webhook read with its endpoint's columns, split in two: the webhook as the API answers it (with its
 * ETag), and the config its Durable Object delivers with (sealed secrets included: never answered).
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

/** The webhook and its endpoint's config. */
export const getEndpoint = async (db: Db, id: number) =>
	split(await readEndpoint(db, id));

/** A new webhook's values, by name: see {@link creating}. */
type NewWebhookValues = {
	url: string;
	events: string;
	secret: SealedSecret;
	createdAt: string;
};

/** Stores the webhook with its sealed secret unless there are already `limits.webhooks`. */
const creating = keyedCreate((db, $: Slot<NewWebhookValues>, key) => ({
	forgetExpired: key.forgetExpired,
	stored: key.stored,
	created: chain({
		// INSERT … SELECT: the count and the insert are one statement, so two creations cannot both pass it.
		webhook: db
			.insert(webhooks)
			.select(
				db
					.select({
						id: autoId,
						url: sql`${$("url")}`.as("url"),
						events: sql`${$("events")}`.as("events"),
						secret: sql`${$("secret")}`.as("secret"),
						retiredSecrets: sql`'[]'`.as("retired_secrets"),
						createdAt: sql`${$("createdAt")}`.as("created_at"),
						disabled: sql`0`.as("disabled"),
						version: sql`1`.as("version"),
					})
					.from(oneRow)
					.where(
						and(
							lt(db.select({ n: count() }).from(webhooks), limits.webhooks),
							key.unused,
						),
					),
			)
			.returning({ ...webhook.tagged, secret: webhooks.secret }),
		// A replay shows the secret again, so the record keeps it as the row does: sealed.
		remember: key.remember(
			webhook,
			sql`json_set(${webhook.json}, '$.secret', ${webhooks.secret})`,
		),
	}),
}));

/** Creates the webhook (see {@link creating}); answers it, or the response stored for its idempotency key. */
export const createWebhook = async (
	db: Db,
	fields: { url: string; events: EventType[]; secret: SealedSecret },
	keyed: Keyed | undefined,
	now: number,
) => {
	const { stored, created } = await creating(
		db,
		{
			url: fields.url,
			events: JSON.stringify(fields.events),
			secret: fields.secret,
			createdAt: new Date(now).toISOString(),
		},
		keyed,
	);
	const outcome = createdOrStored(
		created.webhook.map((row) => ({
			...row,
			secret: row.secret as SealedSecret,
		})),
		stored,
	);
	if (outcome) return outcome;
	throw new ApiError("webhook_limit");
};

/** Changes the webhook unless it changed since `If-Match`; answers it and its endpoint's new config. */
const changeWebhook = async (
	db: Db,
	id: number,
	set: SQLiteUpdateSetSource<typeof webhooks>,
	ifMatch: string[] | undefined,
) => {
	const current = matchesETag(webhook.etag, ifMatch);
	const { guard, changed } = await write(db, {
		guard: probe(db, rowState(webhooks, eq(webhooks.id, id), current)),
		changed: db
			.update(webhooks)
			.set({ ...set, version: bump(webhooks.version) })
			.where(and(eq(webhooks.id, id), current))
			.returning(withEndpoint),
	});
	const [row] = changed;
	if (!row) throw refusal(whyUnchanged(guard[0]), webhookNotFound(id));
	return split(row);
};

/** Applies `updateWebhook`'s changes; the URL is the one to store, normalised. */
export const updateWebhook = (
	db: Db,
	id: number,
	patch: WebhookPatch,
	ifMatch: string[] | undefined,
) => changeWebhook(db, id, patch, ifMatch);

/** Replaces the sealed secret with `secret`; the old one keeps signing for `durations.secretOverlap`, as do those before it. */
export const rotateWebhookSecret = (
	db: Db,
	id: number,
	secret: SealedSecret,
	ifMatch: string[] | undefined,
	now: number,
) =>
	changeWebhook(
		db,
		id,
		{
			secret,
			retiredSecrets: retiring(now, now + durations.secretOverlap),
		},
		ifMatch,
	);

/** Deletes the webhook unless it changed since `If-Match`. */
export const deleteWebhook = async (
	db: Db,
	id: number,
	ifMatch: string[] | undefined,
): Promise<void> => {
	const current = matchesETag(webhook.etag, ifMatch);
	const { guard, deleted } = await write(db, {
		guard: probe(db, rowState(webhooks, eq(webhooks.id, id), current)),
		deleted: db
			.delete(webhooks)
			.where(and(eq(webhooks.id, id), current))
			.returning({ id: webhooks.id }),
	});
	if (deleted.length === 0)
		throw refusal(whyUnchanged(guard[0]), webhookNotFound(id));
};
