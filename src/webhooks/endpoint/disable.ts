import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { webhook } from "../../db/resources";
import { webhooks } from "../../db/schema";
import { changeOne, eventOf } from "../../db/write";
import { ApiError } from "../../models/error";
import type { DeliveryState } from "../../models/webhook";

// A webhook its endpoint gives up on (410 Gone, or failing too long) is disabled in D1, with its event.

/** What `webhook.disabled` carries: the webhook's id and state, `delivery` being its endpoint's. */
export const disabledState = (id: number, delivery: DeliveryState) =>
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
