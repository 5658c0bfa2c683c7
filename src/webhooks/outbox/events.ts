import { and, asc, eq, gt, gte, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Db } from "../../db/client";
import { events, webhooks } from "../../db/schema";
import { log, loggable } from "../../http/log";
import { failedPart } from "../../http/platform";
import type { EventType } from "../../models/event-types";
import { configOf, endpointColumns, endpointOf } from "../endpoint-config";
import type { WebhookMessage } from "./nudge";

// The outbox (the `events` table): what waits to be handed over, the sweep that hands it over, what a replay re-sends.

const columns = {
	id: events.id,
	type: events.type,
	createdAt: events.createdAt,
	data: events.data,
};

type OutboxEvent = Pick<typeof events.$inferSelect, keyof typeof columns>;

const oldestFirst = (db: Db, where: SQL | undefined, limit: number) =>
	db.select(columns).from(events).where(where).orderBy(asc(events.id)).limit(limit);

/** Events not yet handed to their webhooks, oldest first. */
export const waitingEvents = (db: Db, limit: number) =>
	oldestFirst(db, isNull(events.fannedOutAt), limit);

/** Marks events as handed over; the ids travel as one JSON parameter (D1 binds at most 100 to a statement). */
const markHandedOver = (db: Db, handed: OutboxEvent[], now: number) => {
	const ids = JSON.stringify(handed.map(({ id }) => id));
	return db
		.update(events)
		.set({ fannedOutAt: new Date(now).toISOString() })
		.where(sql`${events.id} IN (SELECT value FROM json_each(${ids}))`);
};

/** What a webhook receives: the types it asked for, from its creation on. */
type Subscription = { events: EventType[]; createdAt: string };

/** A replay in progress: the events a webhook receives after `after` are still to be queued. */
export type Replay = Subscription & { after: number };

/** Whether a webhook receives an event (the sweep's test; {@link subscribedEventsAfter} asks D1 the same). */
const receives = (webhook: Subscription, event: OutboxEvent) =>
	webhook.createdAt <= event.createdAt && webhook.events.includes(event.type as EventType);

/** A replay's page: the events a webhook receives after event `after`, oldest first. */
export const subscribedEventsAfter = (db: Db, replay: Replay, limit: number) => {
	const { after, events: types, createdAt } = replay;
	const subscribed = and(inArray(events.type, types), gte(events.createdAt, createdAt));
	return oldestFirst(db, and(gt(events.id, after), subscribed), limit);
};

/** An event as an endpoint receives it: its id and the JSON body, built once when it was handed over. */
export type Delivery = { eventId: number; body: string };

/** An event as it is sent: its `data` is stored as the API's JSON already, so it is spliced in as it is. */
export const deliveryOf = (event: OutboxEvent): Delivery => ({
	eventId: event.id,
	body: `{"id":${event.id},"type":${JSON.stringify(event.type)},"createdAt":${JSON.stringify(event.createdAt)},"data":${event.data}}`,
});

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
					const stub = endpointOf(env, id);
					if (handOffAfter === null) {
						if (received.length > 0) {
							await stub.handOff(configOf(endpoint), received.map(deliveryOf), now);
						}
						return [];
					}
					// Behind since `handOffAfter`: a replay after it, then caught up unless a later sweep marked it again.
					await stub.replay(configOf(endpoint), { after: handOffAfter, events, createdAt }, now);
					return [mark(id, null, eq(webhooks.handOffAfter, handOffAfter))];
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

/** The webhook queue's consumer: one sweep per batch; one that fails is logged and its batch retried. */
export const consume = async (batch: MessageBatch<WebhookMessage>, env: Env, now: number) => {
	try {
		await sweep(env, now);
		batch.ackAll();
	} catch (error) {
		log("error", { part: failedPart(error), error: loggable(error) });
		batch.retryAll();
	}
};
