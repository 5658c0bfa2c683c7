import { and, count, lt, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import type { Placeholders } from "../../db/prepared";
import { webhook } from "../../db/resources";
import { webhooks } from "../../db/schema";
import { changeOne, defineCreate, type WriteContext } from "../../db/write";
import { ApiError } from "../../models/error";
import type { EventType } from "../../models/event-types";
import { durations, limits } from "../../models/limits";
import type { WebhookPatch } from "../../models/webhook";
import { configOf, endpointColumns, retiring } from "../../webhooks/endpoints";
import type { SealedSecret } from "../../webhooks/secret-box";

/** A webhook with its endpoint's columns: what a change answers, and what its Durable Object is told. */
const webhookEndpoint = webhook.with(endpointColumns);

/**
 * A webhook read with its endpoint's columns, split in two: the webhook as the API answers it (with its
 * ETag), and the config its Durable Object delivers with (sealed secrets included: never answered).
 */
const webhookAndConfig = ({
	id,
	url,
	events,
	createdAt,
	disabled,
	etag,
	...endpoint
}: Awaited<ReturnType<typeof webhookEndpoint.find>>) => ({
	webhook: { id, url, events, createdAt, disabled, etag },
	config: configOf({ id, url, ...endpoint }),
});

/** The webhook and its endpoint's config. */
export const getEndpoint = async (db: Db, id: number) =>
	webhookAndConfig(await webhookEndpoint.find(db, id));

/** Stores the webhook with its sealed secret unless there are already `limits.webhooks`. */
const create = defineCreate(
	webhook,
	(
		db,
		fields: Placeholders<{
			url: string;
			events: string;
			secret: SealedSecret;
			createdAt: string;
		}>,
	) => ({
		// INSERT … SELECT: the count and the insert are one statement, so two creations cannot both pass it.
		insert: (allowed) =>
			db.insert(webhooks).select(
				db
					.select({
						id: sql`NULL`.as("id"),
						url: sql`${fields.url}`.as("url"),
						events: sql`${fields.events}`.as("events"),
						secret: sql`${fields.secret}`.as("secret"),
						retiredSecrets: sql`'[]'`.as("retired_secrets"),
						createdAt: sql`${fields.createdAt}`.as("created_at"),
						disabled: sql`0`.as("disabled"),
						handOffAfter: sql`NULL`.as("hand_off_after"),
						version: sql`1`.as("version"),
					})
					.from(sql`(SELECT 1)`)
					.where(
						and(
							lt(db.select({ n: count() }).from(webhooks), limits.webhooks),
							allowed,
						),
					),
			),
		events: [],
		refused: () => new ApiError("webhook_limit"),
		// A replay shows the secret again, so the record keeps it as the row does: sealed.
		replay: sql`json_set(${webhook.json}, '$.secret', ${webhooks.secret})`,
	}),
);

export const createWebhook = (
	ctx: WriteContext,
	fields: { url: string; events: EventType[]; secret: SealedSecret },
) =>
	create(ctx, {
		...fields,
		events: JSON.stringify(fields.events),
		createdAt: new Date(ctx.now).toISOString(),
	});

/** Changes the webhook unless it changed since `If-Match`; answers it and its endpoint's new config. */
const changeWebhook = async (
	ctx: WriteContext,
	id: number,
	set: SQLiteUpdateSetSource<typeof webhooks>,
) => webhookAndConfig(await changeOne(ctx, webhookEndpoint, id, { set }));

/** Applies `updateWebhook`'s changes; the URL is the one to store, normalised. */
export const updateWebhook = (
	ctx: WriteContext,
	id: number,
	patch: WebhookPatch,
) => changeWebhook(ctx, id, patch);

/** Replaces the sealed secret with `secret`; the old one keeps signing for `durations.secretOverlap`, as do those before it. */
export const rotateWebhookSecret = (
	ctx: WriteContext,
	id: number,
	secret: SealedSecret,
) =>
	changeWebhook(ctx, id, {
		secret,
		retiredSecrets: retiring(ctx.now, ctx.now + durations.secretOverlap),
	});

/** Deletes the webhook unless it changed since `If-Match`. */
export const deleteWebhook = (ctx: WriteContext, id: number) =>
	changeOne(ctx, webhook, id, { delete: true });
