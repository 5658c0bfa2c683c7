import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { webhook } from "../db/resources";
import { webhooks } from "../db/schema";
import { declareChange } from "../db/write";
import type { DeliveryState } from "../models/webhook";

const disabling = declareChange<typeof webhook, undefined, DeliveryState>(
	webhook,
	({ values: delivery }) => ({
		unchangedWhen: eq(webhooks.disabled, true),
		event: {
			type: "webhook.disabled",
			data: sql`json_object('id', ${webhooks.id}, 'disabled', json('true'), 'failures', CAST(${delivery.failures} AS INTEGER), 'lastStatus', CAST(${delivery.lastStatus} AS INTEGER), 'lastAttemptAt', ${delivery.lastAttemptAt})`,
		},
	}),
);

/**
 * Disables the webhook for its failed deliveries, with its `webhook.disabled` event in the same batch; the event
 * (in the public feed) carries the webhook's id and state, `delivery` being its endpoint's, never its URL or
 * secret. `disabled` is part of the webhook, so its ETag moves (a client's cached copy is stale); the delivery
 * state is not. A webhook already disabled stays as it is.
 */
export const disableWebhook = async (db: Db, id: number, state: DeliveryState, now: number) => {
	await disabling({ db, now }, id, { set: { disabled: true }, values: state });
};
