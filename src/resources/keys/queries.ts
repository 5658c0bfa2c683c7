import { and, eq, gt, inArray, isNull, not, or, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { apiKey } from "../../db/resources";
import { apiKeys } from "../../db/schema";
import { runWrite, type WriteContext } from "../../db/write";
import { ApiError } from "../../models/error";
import type { KeyPatch, KeyRoll, NewKey } from "../../models/key";
import { keyHash, newKeySecret, startOf } from "../../models/key-secret";
import { type Client, insufficientScope, scopes } from "../../models/scopes";
import { disablingWebhooks, enabledWebhooksOf, pauseEndpoints } from "../webhooks/queries";

/** Refuses a key beyond `client`'s own (a scope it lacks, a later expiry) or whose expiry has passed. */
const withinClient = (client: Client, now: number, given: KeyPatch) => {
	const missing = given.scopes?.find((scope) => !client.scopes.includes(scope));
	if (missing) throw insufficientScope(missing);
	if (given.expiresAt && Date.parse(given.expiresAt) <= now) {
		throw new ApiError("validation_error", "A key's expiry must be a time to come.", [
			{ path: "body.expiresAt", message: "must be in the future" },
		]);
	}
	const outlives =
		client.expiresAt &&
		given.expiresAt !== undefined &&
		(given.expiresAt === null || Date.parse(given.expiresAt) > Date.parse(client.expiresAt));
	if (outlives) throw outlived(client);
};

/** Why a credential that expires may not leave a key expiring after it, or never. */
const outlived = (client: Client) =>
	new ApiError(
		"forbidden",
		`This credential expires at ${client.expiresAt}: a key it makes, changes or rolls cannot outlive it.`,
	);

/** Holds for a key expiring after `client`, or never: stored as {@link utc} strings, which sort in time order. */
const outliving = (client: Client) =>
	client.expiresAt === null
		? undefined
		: or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, client.expiresAt));

/** The scopes `client` lacks: a key holding one is wider than it. */
const lackedBy = (client: Client) => scopes.filter((scope) => !client.scopes.includes(scope));

/** Holds for a key holding a scope `client` lacks: no credential takes over a wider key. */
const widerThan = (client: Client) => {
	const lacked = lackedBy(client);
	const held = sql`exists (select 1 from json_each(${apiKeys.scopes}) where ${inArray(sql`value`, lacked)})`;
	return lacked.length === 0 ? undefined : held;
};

/** An expiry as the API answers every time: ISO 8601 in UTC. */
const utc = (time: string | null | undefined) => (time ? new Date(time).toISOString() : time);

/** A new secret, and what is stored of it. */
const newSecret = async () => {
	const secret = newKeySecret();
	return { secret, stored: { hash: await keyHash(secret), start: startOf(secret) } };
};

/** Makes a key: answered with its secret, shown this once. */
export const createKey = async ({ db, now }: WriteContext, client: Client, body: NewKey) => {
	withinClient(client, now, { ...body, expiresAt: body.expiresAt ?? null });
	const { secret, stored } = await newSecret();
	const createdAt = new Date(now).toISOString();
	const expiresAt = utc(body.expiresAt) ?? null;
	const { key } = await runWrite(db, {
		write: db.insert(apiKeys).values({ ...body, ...stored, expiresAt, createdAt }),
		probe: { key: apiKey.answerAt(db, apiKey.newest) },
	});
	if (key === null) throw apiKey.unexplained();
	return { ...key, secret };
};

/**
 * Sets `fields` on key `id` unless it changed since `If-Match`, is wider than `client` or, unless `fields` gives an
 * expiry, outlives it (checked in the batch, so no change races it).
 */
const changeKey = async (
	{ db, ifMatch }: WriteContext,
	client: Client,
	id: number,
	fields: SQLiteUpdateSetSource<typeof apiKeys>,
) => {
	const kept = fields.expiresAt === undefined ? outliving(client) : undefined;
	const refused = or(widerThan(client), kept);
	const probe = await runWrite(db, {
		write: db
			.update(apiKeys)
			.set({ ...fields, version: sql`${apiKeys.version} + 1` })
			.where(and(eq(apiKeys.id, id), apiKey.matches(ifMatch), refused && not(refused))),
		probe: { key: apiKey.answerAt(db, id), ...apiKey.state(db, id, ifMatch) },
	});
	if (probe.written && probe.key) return probe.key;
	apiKey.mustBeCurrent(id, probe);
	const { key } = probe;
	if (refused === undefined || !key) throw apiKey.unexplained(id);
	// Refused as the key stands: a scope the client lacks, else an expiry that outlives the client's.
	const wider = lackedBy(client).find((scope) => key.scopes.includes(scope));
	throw wider ? insufficientScope(wider) : outlived(client);
};

/** Changes a key's name, scopes or expiry. */
export const updateKey = (ctx: WriteContext, client: Client, id: number, patch: KeyPatch) => {
	withinClient(client, ctx.now, patch);
	return changeKey(ctx, client, id, { ...patch, expiresAt: utc(patch.expiresAt) });
};

/** Gives a key a new secret; the previous one works for `roll.previousValidFor` seconds more. */
export const rollKey = async (ctx: WriteContext, client: Client, id: number, roll: KeyRoll) => {
	const { secret, stored } = await newSecret();
	const rolled = await changeKey(ctx, client, id, {
		...stored,
		previousHash: sql`${apiKeys.hash}`,
		previousUntil: ctx.now + roll.previousValidFor * 1000,
	});
	return { ...rolled, secret };
};

/** Revokes a key, its webhooks disabled in the same batch (each records `webhook.disabled`) and paused. */
export const revokeKey = async (ctx: WriteContext, env: Env, id: number) => {
	const { db, ifMatch } = ctx;
	const enabled = await enabledWebhooksOf(db, env, id);
	const probe = await runWrite(db, {
		// First, while the key still names them (under the revocation's own conditions).
		before: disablingWebhooks(ctx, id, enabled, apiKey.has(db, id, apiKey.matches(ifMatch))),
		write: db.delete(apiKeys).where(and(eq(apiKeys.id, id), apiKey.matches(ifMatch))),
		probe: apiKey.state(db, id, ifMatch),
	});
	if (!probe.written) apiKey.mustBeCurrent(id, probe);
	await pauseEndpoints(db, env, [...enabled.keys()], ctx.now);
};
