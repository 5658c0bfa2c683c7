import { and, eq, gt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { events } from "../../db/schema";
import { walkEach } from "../../db/walks";
import type { Page } from "../../http/pagination";
import type { Event } from "../../models/event";
import type { EventType } from "../../models/event-types";
import { byId } from "../../models/id";

type EventFilter = Page & { type?: EventType[]; subject?: string };

const event = { id: events.id, type: events.type, createdAt: events.createdAt, data: events.data };

/** The page of events after `filter.after`, oldest first, and the next one's first if there is one. */
export const listEvents = async (db: Db, filter: EventFilter): Promise<Event[]> => {
	const { rows } = await walkEach(db, {
		values: filter.type,
		walk: (type) =>
			db
				.select(event)
				.from(events)
				.where(
					and(
						gt(events.id, filter.after),
						type && eq(events.type, type),
						filter.subject === undefined ? undefined : eq(events.subject, filter.subject),
					),
				)
				.orderBy(events.id)
				.limit(filter.limit + 1),
		size: filter.limit + 1,
		id: byId,
	});
	return rows.map((row) => ({ ...row, type: row.type as EventType, data: JSON.parse(row.data) }));
};
