import { drizzle } from "drizzle-orm/d1";

/** Drizzle over a D1 session opened by its first query: a replica as fresh as `bookmark` reads, the primary writes. */
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
