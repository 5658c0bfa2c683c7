import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { webhook } from "../db/resources";
import { webhooks } from "../db/schema";
import { changeOne, eventOf } from "../db/write";
import { ApiError } from "../models/error";
import type { DeliveryState } from "../models/webhook";

/** Disables the webhook (its ETag moves) with its `webhook.disabled` event in one batch, unless it is already. */
export const disableWebhook = async (db: Db, id: number, delivery: DeliveryState, now: number) => {
	const ctx = { db, now };
	// D1 binds a number as a REAL, which the event's text would show as `9.0`.
	const state = sql`json_object('id', CAST(${id} AS INTEGER), 'disabled', json('true'), 'failures', CAST(${delivery.failures} AS INTEGER), 'lastStatus', CAST(${delivery.lastStatus} AS INTEGER), 'lastAttemptAt', ${delivery.lastAttemptAt})`;
	const already = new ApiError("precondition_failed", `Webhook ${id} is disabled already.`);
	await changeOne(ctx, webhook, id, {
		refuse: [[eq(webhooks.disabled, true), () => already]],
		steps: ({ update }) => [
			update({ disabled: true }),
			eventOf(ctx, "webhook.disabled", webhook.pathOf(id), state),
		],
	}).catch((error) => {
		if (error !== already) throw error;
	});
};
