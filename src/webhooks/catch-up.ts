import { drizzle } from "drizzle-orm/d1";
import { webhooks } from "../db/schema";
import { configOf, endpointColumns, endpointOf } from "./endpoints";

/**
 * Brings every webhook's Durable Object up to its D1 row, so that a change whose call to the object failed is
 * applied by the next every-minute sweep: one D1 read, one call per webhook (at most 20). An object that fails
 * again waits for the next minute.
 */
export const catchUpEndpoints = async (env: Env, now: number) => {
	const rows = await drizzle(env.DB)
		.select({ ...endpointColumns, disabled: webhooks.disabled })
		.from(webhooks);
	await Promise.allSettled(
		rows.map((row) =>
			endpointOf(env, row.id).catchUp(configOf(row), row.disabled, now),
		),
	);
};
