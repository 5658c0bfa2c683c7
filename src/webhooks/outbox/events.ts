import { and, asc, gt, gte, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { events } from "../../db/schema";
import type { EventType } from "../../models/event-types";

// Reading the outbox (the `events` table) for deliveries: what waits to be handed over, and what a replay re-sends.

const columns = {
	id: events.id,
	type: events.type,
	createdAt: events.createdAt,
	data: events.data,
};

export type OutboxEvent = Pick<typeof events.$inferSelect, keyof typeof columns>;

const oldestFirst = (db: Db, where: SQL | undefined, limit: number) =>
	db.select(columns).from(events).where(where).orderBy(asc(events.id)).limit(limit);

/** Events not yet handed to their webhooks, oldest first. */
export const waitingEvents = (db: Db, limit: number) =>
	oldestFirst(db, isNull(events.fannedOutAt), limit);

/** Marks events as handed over; the ids travel as one JSON parameter (D1 binds at most 100 to a statement). */
export const markHandedOver = (db: Db, handed: OutboxEvent[], now: number) => {
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
export const receives = (webhook: Subscription, event: OutboxEvent) =>
	webhook.createdAt <= event.createdAt && webhook.events.includes(event.type as EventType);

/** A replay's page: the events a webhook receives after event `after`, oldest first. */
export const subscribedEventsAfter = (db: Db, { after, ...webhook }: Replay, limit: number) =>
	oldestFirst(
		db,
		and(
			gt(events.id, after),
			inArray(events.type, webhook.events),
			gte(events.createdAt, webhook.createdAt),
		),
		limit,
	);

/** An event as an endpoint receives it: its id and the JSON body, built once when it was handed over. */
export type Delivery = { eventId: number; body: string };

/** An event as it is sent: its `data` is stored as the API's JSON already, so it is spliced in as it is. */
export const deliveryOf = (event: OutboxEvent): Delivery => ({
	eventId: event.id,
	body: `{"id":${event.id},"type":${JSON.stringify(event.type)},"createdAt":${JSON.stringify(event.createdAt)},"data":${event.data}}`,
});
