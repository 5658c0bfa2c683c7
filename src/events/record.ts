import { and, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../db/client";
import { autoId, oneRow } from "../db/conditional";
import { events } from "../db/schema";
import type { EventType } from "./types";

/** What a write records about its change. */
export type Change = {
	type: EventType;
	/** The changed resource's path. */
	subject: SQL;
	/** The resource as the API answers it after the change, as SQL that builds its JSON. */
	data: SQL;
	/** The rows `data` and `subject` read, and which (by default, none: a deletion names its id alone). */
	source?: SQLiteTable;
	where?: SQL;
	/** When the change was made, in Unix milliseconds. */
	now: number;
};

/**
 * The outbox row of a change, for the write's own batch, right after the statement that made it: inserted
 * only when that statement changed a row (`changes()`), so a refused write records nothing and an
 * acknowledged one cannot lack its event.
 */
export const recordEvent = (
	db: Db,
	{ type, subject, data, source, where, now }: Change,
) =>
	db.insert(events).select(
		db
			.select({
				id: autoId,
				type: sql`${type}`.as("type"),
				subject: sql`${subject}`.as("subject"),
				createdAt: sql`${new Date(now).toISOString()}`.as("created_at"),
				data: sql`${data}`.as("data"),
				fannedOutAt: sql`NULL`.as("fanned_out_at"),
			})
			.from(source ?? oneRow)
			.where(and(where, sql`changes() = 1`)),
	);

/** `{ "id": … }`: what a deletion's event carries. */
export const idOnly = (id: number) => sql`json_object('id', ${id})`;
