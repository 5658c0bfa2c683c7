import { drizzle } from "drizzle-orm/d1";

/**
 * A Drizzle client over a D1 session, opened by its first query (a request that never queries opens none): reads
 * may be served by a replica that has caught up with `bookmark`, writes start at the primary.
 */
export const openSession = (
	d1: D1Database,
	{ bookmark, write }: { bookmark?: string; write: boolean },
) => {
	let session: D1DatabaseSession | undefined;
	const open = () =>
		(session ??= d1.withSession(bookmark ?? (write ? "first-primary" : "first-unconstrained")));
	// Drizzle calls only prepare() and batch(), which a session has.
	const db = drizzle({
		prepare: (query: string) => open().prepare(query),
		batch: (statements: D1PreparedStatement[]) => open().batch(statements),
	} as unknown as D1Database);
	return { db, bookmark: () => session?.getBookmark() ?? null };
};

export type Db = ReturnType<typeof openSession>["db"];
