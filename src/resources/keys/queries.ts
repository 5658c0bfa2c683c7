import { eq, gt, isNull, not, or, type SQL, sql } from "drizzle-orm";
import { apiKey } from "../../db/resources";
import { apiKeys } from "../../db/schema";
import {
	changeOne,
	createOne,
	exists,
	type Refusal,
	removeOne,
	type WriteContext,
} from "../../db/write";
import { forgetKey, insufficientScope } from "../../http/auth";
import { ApiError } from "../../models/error";
import type { KeyPatch, KeyRoll, NewKey } from "../../models/key";
import { keyHash, newKeySecret, startOf } from "../../models/key-secret";
import { type Client, scopes } from "../../models/scopes";
import { disablingSteps, enabledWebhooksOf, pauseEndpoints } from "../webhooks/queries";

/**
 * Refuses to make a key with scopes `client` lacks, or that outlives it: no key makes or widens a key beyond its
 * own; and an expiry that has passed.
 */
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

/**
 * A key whose stored expiry is later than `client`'s, or never comes, is refused: no short-lived credential takes
 * over a longer-lived key. Expiries are stored as {@link utc} strings, whose text order is their time order.
 */
const outliving = (client: Client): Refusal[] => {
	if (client.expiresAt === null) return [];
	const later = or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, client.expiresAt)) as SQL;
	return [[later, () => outlived(client)]];
};

/** A key holding a scope `client` lacks is refused, naming the scope: no credential takes over a wider key. */
const widerThan = (client: Client): Refusal[] =>
	scopes
		.filter((scope) => !client.scopes.includes(scope))
		.map(
			(scope): Refusal => [
				sql`exists (select 1 from json_each(${apiKeys.scopes}) where value = ${scope})`,
				() => insufficientScope(scope),
			],
		);

/** An expiry as the API answers every time: ISO 8601 in UTC. */
const utc = (time: string | null | undefined) => (time ? new Date(time).toISOString() : time);

/** A new secret, and what is stored of it. */
const newSecret = async () => {
	const secret = newKeySecret();
	return { secret, stored: { hash: await keyHash(secret), start: startOf(secret) } };
};

/** Makes a key: answered with its secret, shown this once. */
export const createKey = async (ctx: WriteContext, client: Client, body: NewKey) => {
	withinClient(client, ctx.now, { ...body, expiresAt: body.expiresAt ?? null });
	const { secret, stored } = await newSecret();
	const created = await createOne(ctx, apiKey, {
		steps: ({ insert }) => [
			insert({
				...body,
				...stored,
				expiresAt: utc(body.expiresAt) ?? null,
				createdAt: new Date(ctx.now).toISOString(),
			}),
		],
	});
	return { ...created, secret };
};

/** Changes a key's name, scopes or expiry; it applies in this isolate at once, elsewhere within 10 seconds. */
export const updateKey = async (ctx: WriteContext, client: Client, id: number, patch: KeyPatch) => {
	withinClient(client, ctx.now, patch);
	const set = patch.expiresAt === undefined ? patch : { ...patch, expiresAt: utc(patch.expiresAt) };
	// A patch without an expiry keeps the stored one: checked in the batch, so no change races it.
	const kept = patch.expiresAt === undefined ? outliving(client) : [];
	const updated = await changeOne(ctx, apiKey, id, {
		refuse: [...widerThan(client), ...kept],
		steps: ({ update }) => [update(set)],
	});
	forgetKey(id);
	return updated;
};

/** Gives a key a new secret; the previous one works for `roll.previousValidFor` seconds more. */
export const rollKey = async (ctx: WriteContext, client: Client, id: number, roll: KeyRoll) => {
	const { secret, stored } = await newSecret();
	const rolled = await changeOne(ctx, apiKey, id, {
		refuse: [...widerThan(client), ...outliving(client)],
		steps: ({ update }) => [
			update({
				...stored,
				previousHash: sql`${apiKeys.hash}` as SQL<string>,
				previousUntil: ctx.now + roll.previousValidFor * 1000,
			}),
		],
	});
	forgetKey(id);
	return { ...rolled, secret };
};

/**
 * Revokes a key: it stops working here at once, elsewhere within 10 seconds; its webhooks are disabled in the same
 * batch, each recording `webhook.disabled`, and their endpoints start no new delivery.
 */
export const revokeKey = async (ctx: WriteContext, env: Env, id: number) => {
	const enabled = await enabledWebhooksOf(ctx.db, env, id);
	const revoked = not(exists(apiKeys, eq(apiKeys.id, id)));
	await removeOne(ctx, apiKey, id, {
		steps: ({ remove }) => [remove(), ...disablingSteps(ctx, id, enabled, revoked)],
	});
	forgetKey(id);
	await pauseEndpoints(ctx.db, env, [...enabled.keys()], ctx.now);
};
