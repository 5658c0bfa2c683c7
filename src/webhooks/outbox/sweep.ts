import { and, eq, isNull, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Db } from "../../db/client";
import { webhooks } from "../../db/schema";
import { log } from "../../http/log";
import { configOf, endpointColumns, endpointOf } from "../endpoint-config";
import { deliveryOf, markHandedOver, receives, waitingEvents } from "./events";

/** Events handed over per round; a longer outbox takes more rounds of the same sweep. */
const sweepSize = 100;

const subscriber = {
	...endpointColumns,
	events: webhooks.events,
	createdAt: webhooks.createdAt,
	handOffAfter: webhooks.handOffAfter,
};

const subscribers = (db: Db) => db.select(subscriber).from(webhooks);

/**
 * Hands the outbox's waiting events to the Durable Objects of the webhooks that receive them, then marks them handed
 * over. An endpoint that fails is marked to replay them; a crash in between hands them over again (endpoints dedupe).
 */
export const sweep = async (env: Env, now: number) => {
	const db = drizzle(env.DB);
	/** Sets webhook `id`'s `handOffAfter` where `current` still holds. */
	const mark = (id: number, handOffAfter: number | null, current: SQL) =>
		db
			.update(webhooks)
			.set({ handOffAfter })
			.where(and(eq(webhooks.id, id), current));
	for (;;) {
		const [waiting, endpoints] = await db.batch([waitingEvents(db, sweepSize), subscribers(db)]);
		const caughtUp = endpoints.every(({ handOffAfter }) => handOffAfter === null);
		if (waiting.length === 0 && caughtUp) return;
		const marks = await Promise.all(
			endpoints.map(async (endpoint) => {
				const { id, handOffAfter, events, createdAt } = endpoint;
				const received = waiting.filter((event) => receives(endpoint, event));
				try {
					// Behind since `handOffAfter`: a replay after it; else the events it receives.
					const stub = endpointOf(env, id);
					if (handOffAfter !== null) {
						await stub.replay(configOf(endpoint), { after: handOffAfter, events, createdAt }, now);
					} else if (received.length > 0) {
						await stub.handOff(configOf(endpoint), received.map(deliveryOf), now);
					}
					// Caught up: unless a later sweep marked it again meanwhile.
					return handOffAfter === null
						? []
						: [mark(id, null, eq(webhooks.handOffAfter, handOffAfter))];
				} catch (error) {
					log("warn", {
						part: "durable-object",
						webhookId: id,
						error: `endpoint did not take its events: ${String(error)}`,
					});
					const [first] = received;
					return handOffAfter !== null || first === undefined
						? []
						: [mark(id, first.id - 1, isNull(webhooks.handOffAfter))];
				}
			}),
		);
		await db.batch([markHandedOver(db, waiting, now), ...marks.flat()]);
		if (waiting.length < sweepSize) return;
	}
};
