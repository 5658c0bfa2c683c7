import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { webhook } from "../db/resources";
import { webhooks } from "../db/schema";
import { changeOne } from "../db/write";
import type { DeliveryState } from "../models/webhook";

/**
 * Disables the webhook for its failed deliveries, with its `webhook.disabled` event in the same batch; the
 * event carries the webhook as `getWebhook` answers it, `delivery` being its endpoint's state. `disabled` is part
 * of the webhook, so its ETag moves (a client's cached copy is stale); the delivery state is not. A webhook
 * already disabled stays as it is.
 */
export const disableWebhook = async (
	db: Db,
	id: number,
	delivery: DeliveryState,
	now: number,
) => {
	await changeOne({ db, now }, webhook, id, {
		set: { disabled: true },
		unchangedWhen: eq(webhooks.disabled, true),
		event: {
			type: "webhook.disabled",
			data: sql`json_set(${webhook.json}, '$.failures', ${delivery.failures}, '$.lastStatus', ${delivery.lastStatus}, '$.lastAttemptAt', ${delivery.lastAttemptAt})`,
		},
	});
};
