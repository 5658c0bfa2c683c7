import { drizzle } from "drizzle-orm/d1";

/**
 * A per-request Drizzle client over a D1 session (the Sessions API): reads may be served by a read replica
 * that has caught up with `bookmark`; writes start at the primary.
 */
export const openSession = (
	d1: D1Database,
	{ bookmark, write }: { bookmark?: string; write: boolean },
) => {
	const session = d1.withSession(
		bookmark ?? (write ? "first-primary" : "first-unconstrained"),
	);
	// Drizzle calls only prepare() and batch(), which a session has.
	const db = drizzle(session as unknown as D1Database);
	return { db, bookmark: () => session.getBookmark() };
};

export type Db = ReturnType<typeof openSession>["db"];
