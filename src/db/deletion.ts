import { and, eq, not, type SQL } from "drizzle-orm";
import type { EventType } from "../models/event-types";
import { chain, write } from "./batch";
import type { Db } from "./client";
import {
	matchesETag,
	probe,
	rowState,
	type Unchanged,
	whyUnchanged,
} from "./conditional";
import { recordDeletion } from "./outbox";
import type { Resource } from "./resource";

/**
 * Deletes the resource `id`, with its event, in one batch, unless its ETag moved on since `If-Match` or `blocked`
 * holds. Answers why nothing was deleted, if nothing was.
 */
export const deleteResource = async (
	db: Db,
	resource: Resource,
	{
		id,
		ifMatch,
		blocked,
		type,
		now,
	}: {
		id: number;
		ifMatch: string[] | undefined;
		blocked: SQL;
		type: EventType;
		now: number;
	},
): Promise<Unchanged | undefined> => {
	const current = matchesETag(resource.etag, ifMatch);
	const row = eq(resource.key, id);
	const { guard, deleted } = await write(db, {
		guard: probe(db, rowState(resource.table, row, current)),
		deleted: chain({
			row: db.delete(resource.table).where(and(row, current, not(blocked))),
			event: (changed) =>
				recordDeletion(db, { type, resource, id, changed, now }),
		}),
	});
	if (deleted.row.meta.changes > 0) return undefined;
	const [state] = guard;
	return whyUnchanged(state);
};
