import { drizzle } from "drizzle-orm/d1";
import { retryingReads } from "./read-retry";

/**
 * A Drizzle client over a D1 session (the Sessions API), opened by its first query: reads may be served by a
 * read replica that has caught up with `bookmark`, writes start at the primary. A request that never queries
 * opens none. A request that only reads retries what D1 documents as retryable (`onRecovered` hears of each
 * success after a retry); a write is never retried here, since its first run may have applied.
 */
export const openSession = (
	d1: D1Database,
	{
		bookmark,
		write,
		onRecovered = () => {},
	}: {
		bookmark?: string;
		write: boolean;
		onRecovered?: (retries: number) => void;
	},
) => {
	let session: D1DatabaseSession | undefined;
	const open = () =>
		(session ??= d1.withSession(
			bookmark ?? (write ? "first-primary" : "first-unconstrained"),
		));
	// Drizzle calls only prepare() and batch(), which a session has.
	const client = write
		? {
				prepare: (query: string) => open().prepare(query),
				batch: (statements: D1PreparedStatement[]) => open().batch(statements),
			}
		: retryingReads(open, onRecovered);
	const db = drizzle(client as unknown as D1Database);
	return { db, bookmark: () => session?.getBookmark() ?? null };
};

export type Db = ReturnType<typeof openSession>["db"];
