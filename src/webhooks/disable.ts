import { and, eq, sql } from "drizzle-orm";
import { chain, write } from "../db/batch";
import type { Db } from "../db/client";
import { bump } from "../db/conditional";
import { recordEvent } from "../db/outbox";
import { webhook } from "../db/resources";
import { webhooks } from "../db/schema";
import type { DeliveryState } from "../models/webhook";

/**
 * Disables the webhook for its failed deliveries, with its `webhook.disabled` event in the same batch; the
 * event carries the webhook as `getWebhook` answers it, `delivery` being its endpoint's state. `disabled` is part
 * of the webhook, so its ETag moves (a client's cached copy is stale); the delivery state is not.
 */
export const disableWebhook = async (
	db: Db,
	id: number,
	delivery: DeliveryState,
	now: number,
) => {
	const row = eq(webhooks.id, id);
	await write(db, {
		disabled: chain({
			row: db
				.update(webhooks)
				.set({ disabled: true, version: bump(webhooks.version) })
				.where(and(row, eq(webhooks.disabled, false))),
			event: (changed) =>
				recordEvent(db, {
					type: "webhook.disabled",
					resource: {
						...webhook,
						json: sql`json_set(${webhook.json}, '$.failures', ${delivery.failures}, '$.lastStatus', ${delivery.lastStatus}, '$.lastAttemptAt', ${delivery.lastAttemptAt})`,
					},
					where: row,
					changed,
					now,
				}),
		}),
	});
};
