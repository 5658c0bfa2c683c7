import { and, count, eq, inArray, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { webhook } from "../../db/resources";
import { webhooks } from "../../db/schema";
import {
	eventRow,
	idempotencyRecord,
	insertWhere,
	runWrite,
	type WriteContext,
} from "../../db/write";
import { urlProblem } from "../../http/public-hosts";
import { ApiError, invalid } from "../../models/error";
import { durations, limits } from "../../models/limits";
import type { Client } from "../../models/scopes";
import type { DeliveryState, NewWebhook, WebhookPatch } from "../../models/webhook";
import { disabledEvent } from "../../webhooks/endpoint/disable";
import { configOf, endpointAt, endpointColumns, endpointOf } from "../../webhooks/endpoint-config";
import { replayedSecret } from "../../webhooks/secrets/replayed-secret";
import { type SealedSecret, sealSecret } from "../../webhooks/secrets/secret-box";

// Each webhook operation writes D1, tells the Durable Object and answers its delivery state (kept there, not in ETags).

/** The URL as stored, normalised; a `validation_error` on `body.url` where `env` may not deliver to it. */
const storableUrl = (url: string, env: Env) => {
	const problem = urlProblem(url, env);
	if (problem !== undefined) throw invalid("body.url", problem);
	return new URL(url).href;
};

/** `whsec_` and 32 random bytes in base64: the Standard Webhooks secret format. */
const newSecret = () => `whsec_${crypto.getRandomValues(new Uint8Array(32)).toBase64()}`;

/** The webhooks `client` acts on: those it created; the root token, every one (another's is not found). */
export const ownedBy = (client: Client) =>
	client.key === undefined ? undefined : eq(webhooks.owner, client.key);

/** A change by a client to webhook `id`, within the webhooks it acts on: `owned`, from {@link ownedBy}. */
export type Change = { ctx: WriteContext; env: Env; id: number; owned: SQL | undefined };

/** The webhook `id` (404 when there is none, or it is not `owned`), and the config its endpoint delivers with. */
export const getEndpoint = async (db: Db, id: number, owned?: SQL) => {
	const row = await db
		.select({ webhook: webhook.answerAt(db, id), endpoint: endpointAt(db, id) })
		.from(webhooks)
		.where(and(eq(webhooks.id, id), owned))
		.get();
	if (!row?.webhook || !row.endpoint) throw webhook.notFound(id);
	return { webhook: row.webhook, config: configOf(row.endpoint) };
};

export const withDeliveryState = async <T extends { id: number }>(env: Env, answered: T) => ({
	...answered,
	...(await endpointOf(env, answered.id).deliveryState()),
});

/** Stores the webhook, secret sealed (its idempotency record too), unless `limits.webhooks` exist; shows it once. */
export const createWebhook = async (
	ctx: WriteContext,
	env: Env,
	client: Client,
	body: NewWebhook,
) => {
	const { db, now } = ctx;
	const owner = client.key ?? null;
	const url = storableUrl(body.url, env);
	const secret = newSecret();
	const createdAt = new Date(now).toISOString();
	const theirs = owner === null ? isNull(webhooks.owner) : eq(webhooks.owner, owner);
	// One statement counts and inserts, so two creations cannot both pass the count.
	const underLimit = lt(db.select({ n: count() }).from(webhooks).where(theirs), limits.webhooks);
	// The record keeps the sealed secret, which a replay shows while the webhook still signs with it.
	const withSecret = sql`json_set(${webhook.json}, '$.secret', ${webhooks.secret})`;
	const keyed = idempotencyRecord(ctx, webhook, withSecret);
	const values = { ...body, url, secret: await sealSecret(secret, env), createdAt, owner };
	const probe = await runWrite(db, {
		before: keyed.forget,
		write: insertWhere(db, webhooks, values, and(underLimit, keyed.unused)),
		after: keyed.record,
		probe: { webhook: webhook.answerAt(db, webhook.newest), stored: keyed.stored, underLimit },
	});
	const delivery = { failures: 0, lastStatus: null, lastAttemptAt: null };
	if (probe.written && probe.webhook) {
		return { webhook: { ...probe.webhook, ...delivery, secret }, replayed: false };
	}
	if (!probe.stored) throw probe.underLimit ? webhook.unexplained() : new ApiError("webhook_limit");
	const { secret: stored, ...replayed } = keyed.replay(probe.stored) as typeof probe.webhook & {
		secret: SealedSecret;
	};
	const shown = await replayedSecret(db, env, replayed.id, stored);
	return { webhook: { ...replayed, ...delivery, secret: shown }, replayed: true };
};

/** Changes the webhook unless it changed since `If-Match`, and reconfigures its endpoint (`disabled` pauses it). */
export const updateWebhook = async (
	{ ctx, env, id, owned }: Change,
	patch: WebhookPatch & { secret?: string; retiredSecrets?: SQL },
) => {
	const { db, ifMatch, now } = ctx;
	const url = patch.url === undefined ? {} : { url: storableUrl(patch.url, env) };
	const probe = await runWrite(db, {
		write: db
			.update(webhooks)
			.set({ ...patch, ...url, version: sql`${webhooks.version} + 1` })
			.where(and(eq(webhooks.id, id), owned, webhook.matches(ifMatch))),
		probe: {
			webhook: webhook.answerAt(db, id),
			endpoint: endpointAt(db, id),
			...webhook.state(db, id, ifMatch, owned),
		},
	});
	if (!probe.written || !probe.webhook || !probe.endpoint) {
		webhook.mustBeCurrent(id, probe);
		throw webhook.unexplained(id);
	}
	const config = configOf(probe.endpoint);
	const delivery = await endpointOf(env, id).configure(config, now, patch.disabled);
	return { ...probe.webhook, ...delivery };
};

/** A rotation's `retired_secrets`: the secret it replaces, until `expiresAt`, then those still signing at `now`. */
const retiring = (now: SQL, expiresAt: SQL) =>
	sql<(typeof webhooks.$inferSelect)["retiredSecrets"]>`(SELECT json_group_array(json(value)) FROM (
		SELECT json_object('secret', ${webhooks.secret}, 'expiresAt', ${expiresAt}) AS value
		UNION ALL
		SELECT value FROM json_each(${webhooks.retiredSecrets}) WHERE value ->> 'expiresAt' > ${now}
	))`;

/** Replaces the secret with a new one, shown this once; the old one signs on for `durations.secretOverlap`. */
export const rotateWebhookSecret = async (change: Change) => {
	const secret = newSecret();
	const { now } = change.ctx;
	const rotated = await updateWebhook(change, {
		secret: await sealSecret(secret, change.env),
		retiredSecrets: retiring(sql`${now}`, sql`${now + durations.secretOverlap}`),
	});
	return { ...rotated, secret };
};

/** Deletes the webhook unless it changed since `If-Match`, and its endpoint forgets everything. */
export const deleteWebhook = async ({ ctx, env, id, owned }: Change) => {
	const { db, ifMatch } = ctx;
	const probe = await runWrite(db, {
		write: db.delete(webhooks).where(and(eq(webhooks.id, id), owned, webhook.matches(ifMatch))),
		probe: webhook.state(db, id, ifMatch, owned),
	});
	if (!probe.written) webhook.mustBeCurrent(id, probe);
	await endpointOf(env, id).forget();
};

/** Has the webhook's endpoint send again every event it receives after event `after`. */
export const replayWebhook = async ({ ctx, env, id, owned }: Change, after: number) => {
	const { webhook, config } = await getEndpoint(ctx.db, id, owned);
	const { events, createdAt } = webhook;
	await endpointOf(env, id).replay(config, { after, events, createdAt }, ctx.now);
};

/** The enabled webhooks of key `owner` with their delivery states, read before its revocation (keys/queries.ts). */
export const enabledWebhooksOf = async (db: Db, env: Env, owner: number) => {
	const enabled = await db
		.select({ id: webhooks.id })
		.from(webhooks)
		.where(and(eq(webhooks.owner, owner), eq(webhooks.disabled, false)));
	const states = await Promise.all(enabled.map((row) => withDeliveryState(env, row)));
	return new Map(states.map(({ id, ...delivery }) => [id, delivery]));
};

/**
 * The statements, ahead of key `owner`'s revocation in its batch (while `revoking` holds), that disable its webhooks:
 * each of `enabled` with its `webhook.disabled` event, then any it made since they were read, without one.
 */
export const disablingWebhooks = (
	ctx: WriteContext,
	owner: number,
	enabled: Map<number, DeliveryState>,
	revoking: SQL,
) => {
	const disable = (which: SQL | undefined) =>
		ctx.db
			.update(webhooks)
			.set({ disabled: true, version: sql`${webhooks.version} + 1` })
			.where(and(eq(webhooks.owner, owner), eq(webhooks.disabled, false), which, revoking));
	return [
		...[...enabled].flatMap(([id, delivery]) => [
			disable(eq(webhooks.id, id)),
			eventRow(ctx, "webhook.disabled", disabledEvent(id, delivery)),
		]),
		disable(undefined),
	];
};

/** Pauses the endpoints of webhooks `ids`, once disabled in D1, so no new delivery starts; a deleted one has none. */
export const pauseEndpoints = async (db: Db, env: Env, ids: number[], now: number) => {
	if (ids.length === 0) return;
	const rows = await db.select(endpointColumns).from(webhooks).where(inArray(webhooks.id, ids));
	await Promise.all(rows.map((row) => endpointOf(env, row.id).configure(configOf(row), now, true)));
};
