import { drizzle } from "drizzle-orm/d1";

/** The per-request Drizzle client over the `DB` binding. */
export const createDb = (d1: D1Database) => drizzle(d1);

export type Db = ReturnType<typeof createDb>;
