// A webhook's endpoint (its Durable Object) and the config it delivers with, read from D1 by the sweep and operations.

import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { jsonObject } from "../db/resource";
import { webhooks } from "../db/schema";

/** What a webhook's Durable Object needs to deliver: where, signed with which secrets, as of which version. */
export type EndpointConfig = {
	webhookId: number;
	url: string;
	/** Sealed, newest first, opened only to sign; a rotated-out one signs until `expiresAt` (Unix ms). */
	secrets: { secret: string; expiresAt: number | null }[];
	/** The webhook's row version: an endpoint keeps the newest config it was given, whatever the order. */
	version: number;
};

/** The columns of `webhooks` an {@link EndpointConfig} is made of, for a select or a `RETURNING`. */
export const endpointColumns = {
	id: webhooks.id,
	url: webhooks.url,
	secret: webhooks.secret,
	retiredSecrets: webhooks.retiredSecrets,
	version: webhooks.version,
};

type EndpointRow = Pick<typeof webhooks.$inferSelect, keyof typeof endpointColumns>;

export const configOf = (row: EndpointRow): EndpointConfig => ({
	webhookId: row.id,
	url: row.url,
	secrets: [
		{ secret: row.secret, expiresAt: null },
		...row.retiredSecrets.toSorted((a, b) => b.expiresAt - a.expiresAt),
	],
	version: row.version,
});

export const endpointOf = (env: Env, id: number) => env.WEBHOOK_ENDPOINT.getByName(String(id));

/** For a write's probe: the endpoint's columns of webhook `id`, or null when there is none. */
export const endpointAt = (db: Db, id: number) =>
	sql`${db
		.select({ row: jsonObject(endpointColumns) })
		.from(webhooks)
		.where(eq(webhooks.id, id))}`.mapWith((text: string): EndpointRow => JSON.parse(text));
