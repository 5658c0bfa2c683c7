import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { webhooks } from "../db/schema";
import { configOf, endpointColumns, endpointOf } from "./endpoints";
import {
	deliveryOf,
	markHandedOver,
	receives,
	waitingEvents,
} from "./outbox-reads";

/** Events handed over per round; a longer outbox takes more rounds of the same sweep. */
const sweepSize = 100;

/**
 * Hands the outbox's waiting events, oldest first, to the Durable Object of each enabled webhook that
 * receives them (with the bodies, the URL and the secrets: a delivery reads nothing more), then marks them
 * handed over. Two D1 round trips a round, however many events and webhooks. A crash between the two hands
 * them over again, and each endpoint ignores an event it already holds.
 */
export const sweep = async (env: Env, now: number) => {
	const db = drizzle(env.DB);
	for (;;) {
		const [waiting, endpoints] = await db.batch([
			waitingEvents(db, sweepSize),
			db
				.select({
					...endpointColumns,
					events: webhooks.events,
					createdAt: webhooks.createdAt,
				})
				.from(webhooks)
				.where(eq(webhooks.disabled, false)),
		]);
		if (waiting.length === 0) return;
		await Promise.all(
			endpoints.map((endpoint) => {
				const events = waiting.filter((event) => receives(endpoint, event));
				return (
					events.length > 0 &&
					endpointOf(env, endpoint.id).handOff(
						configOf(endpoint),
						events.map(deliveryOf),
						now,
					)
				);
			}),
		);
		await markHandedOver(
			db,
			waiting.map((event) => event.id),
			now,
		);
		if (waiting.length < sweepSize) return;
	}
};
