import { and, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { EventType } from "../models/event-types";
import type { Db } from "./client";
import { autoId, oneRow } from "./conditional";
import type { Resource } from "./resource";
import { events } from "./schema";

/** When a change happened: a time, or a prepared statement's placeholder for its ISO 8601 text. */
export type Moment = number | Placeholder<string, string>;

/** An outbox row's columns, in the table's order (an INSERT … SELECT names them by position). */
const row = (type: EventType, subject: SQL, data: SQL, now: Moment) => ({
	id: autoId,
	type: sql`${type}`.as("type"),
	subject: sql`${subject}`.as("subject"),
	createdAt:
		sql`${typeof now === "number" ? new Date(now).toISOString() : now}`.as(
			"created_at",
		),
	data: sql`${data}`.as("data"),
	fannedOutAt: sql`NULL`.as("fanned_out_at"),
});

/**
 * The outbox row of a change, for the write's own batch: the resource `where` selects, as the API answers it after
 * the change, recorded only when `changed` holds (a link of a chain: when the change changed a row), so a refused
 * write records nothing and an acknowledged one cannot lack its event.
 */
export const recordEvent = (
	db: Db,
	{
		type,
		resource,
		where,
		changed,
		now,
	}: {
		type: EventType;
		resource: Resource;
		where: SQL;
		changed: SQL;
		now: Moment;
	},
) =>
	db
		.insert(events)
		.select(
			resource
				.select(db, row(type, resource.subject, resource.json, now))
				.where(and(where, changed)),
		);

/** The outbox row of a deletion, whose event carries the id of what is gone; see {@link recordEvent}. */
export const recordDeletion = (
	db: Db,
	{
		type,
		resource,
		id,
		changed,
		now,
	}: {
		type: EventType;
		resource: Resource;
		id: number;
		changed: SQL;
		now: number;
	},
) =>
	db.insert(events).select(
		db
			.select(
				row(
					type,
					sql`${resource.pathOf(id)}`,
					sql`json_object('id', ${id})`,
					now,
				),
			)
			.from(oneRow)
			.where(changed),
	);
