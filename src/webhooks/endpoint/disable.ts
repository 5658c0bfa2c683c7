import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { webhook } from "../../db/resources";
import { webhooks } from "../../db/schema";
import { eventRow, runWrite } from "../../db/write";
import type { DeliveryState } from "../../models/webhook";

/** What `webhook.disabled` says of webhook `id`: its id and state, `delivery` being its endpoint's. */
export const disabledEvent = (id: number, delivery: DeliveryState) => ({
	subject: webhook.pathOf(id),
	// D1 binds a number as a REAL, which the event's text would show as `9.0`.
	data: sql`json_object('id', CAST(${id} AS INTEGER), 'disabled', json('true'), 'failures', CAST(${delivery.failures} AS INTEGER), 'lastStatus', CAST(${delivery.lastStatus} AS INTEGER), 'lastAttemptAt', ${delivery.lastAttemptAt})`,
});

/** Disables the webhook (its ETag moves) with its `webhook.disabled` event in one batch, unless it is already. */
export const disableWebhook = async (db: Db, id: number, delivery: DeliveryState, now: number) => {
	const probe = await runWrite(db, {
		write: db
			.update(webhooks)
			.set({ disabled: true, version: sql`${webhooks.version} + 1` })
			.where(and(eq(webhooks.id, id), eq(webhooks.disabled, false))),
		after: [eventRow({ db, now }, "webhook.disabled", disabledEvent(id, delivery))],
		probe: webhook.state(db, id),
	});
	if (!probe.found) throw webhook.notFound(id);
};
