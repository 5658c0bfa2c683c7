import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { webhook } from "../db/resources";
import { webhooks } from "../db/schema";
import { changeOne, eventOf, type Step, step, type WriteContext } from "../db/write";
import { ApiError } from "../models/error";
import type { DeliveryState } from "../models/webhook";
import { configOf, endpointColumns, endpointOf } from "./endpoints";

/** What `webhook.disabled` carries: the webhook's id and state, `delivery` being its endpoint's. */
const disabledState = (id: number, delivery: DeliveryState) =>
	// D1 binds a number as a REAL, which the event's text would show as `9.0`.
	sql`json_object('id', CAST(${id} AS INTEGER), 'disabled', json('true'), 'failures', CAST(${delivery.failures} AS INTEGER), 'lastStatus', CAST(${delivery.lastStatus} AS INTEGER), 'lastAttemptAt', ${delivery.lastAttemptAt})`;

/** Disables the webhook (its ETag moves) with its `webhook.disabled` event in one batch, unless it is already. */
export const disableWebhook = async (db: Db, id: number, delivery: DeliveryState, now: number) => {
	const ctx = { db, now };
	const already = new ApiError("precondition_failed", `Webhook ${id} is disabled already.`);
	await changeOne(ctx, webhook, id, {
		refuse: [[eq(webhooks.disabled, true), () => already]],
		steps: ({ update }) => [
			update({ disabled: true }),
			eventOf(ctx, "webhook.disabled", webhook.pathOf(id), disabledState(id, delivery)),
		],
	}).catch((error) => {
		if (error !== already) throw error;
	});
};

/** The enabled webhooks of key `owner`, each with its endpoint's delivery state. */
export const enabledWebhooksOf = async (db: Db, env: Env, owner: number) => {
	const enabled = await db
		.select({ id: webhooks.id })
		.from(webhooks)
		.where(and(eq(webhooks.owner, owner), eq(webhooks.disabled, false)));
	return new Map(
		await Promise.all(
			enabled.map(async ({ id }) => [id, await endpointOf(env, id).deliveryState()] as const),
		),
	);
};

/**
 * The steps that disable, in the batch that revokes key `owner` (once `revoked` holds), its webhooks: each of
 * `enabled` with its `webhook.disabled` event, then any it made since they were read, without one.
 */
export const disablingSteps = (
	ctx: WriteContext,
	owner: number,
	enabled: Map<number, DeliveryState>,
	revoked: SQL,
): Step[] => {
	const disable = (which: SQL | undefined) =>
		ctx.db
			.update(webhooks)
			.set({ disabled: true, version: sql`${webhooks.version} + 1` })
			.where(and(eq(webhooks.owner, owner), eq(webhooks.disabled, false), which, revoked));
	return [
		...[...enabled].flatMap(([id, delivery]) => [
			step(`disable webhook ${id}`, disable(eq(webhooks.id, id))),
			eventOf(ctx, "webhook.disabled", webhook.pathOf(id), disabledState(id, delivery)),
		]),
		step("disable the rest", disable(undefined)),
	];
};

/**
 * Stops the deliveries of the webhooks `ids`, disabled in D1 (their configs read at once, after): no new delivery
 * starts. One deleted meanwhile has no endpoint left to pause.
 */
export const pauseEndpoints = async (db: Db, env: Env, ids: number[], now: number) => {
	if (ids.length === 0) return;
	const rows = await db.select(endpointColumns).from(webhooks).where(inArray(webhooks.id, ids));
	await Promise.all(rows.map((row) => endpointOf(env, row.id).configure(configOf(row), now, true)));
};
