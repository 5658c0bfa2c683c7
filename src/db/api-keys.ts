import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "./client";
import { apiKeys } from "./schema";

const columns = {
	id: apiKeys.id,
	scopes: apiKeys.scopes,
	hash: apiKeys.hash,
	previousUntil: apiKeys.previousUntil,
	expiresAt: apiKeys.expiresAt,
};

/** A key as the bearer check reads it: by the digest of its secret, or of its previous one while that works. */
export const keyByHash = (db: Db, hash: string) =>
	db
		.select(columns)
		.from(apiKeys)
		.where(or(eq(apiKeys.hash, hash), eq(apiKeys.previousHash, hash)))
		.get();

/** A key by its id, as an agent's grant names the key that consented. */
export const keyById = (db: Db, id: number) =>
	db.select(columns).from(apiKeys).where(eq(apiKeys.id, id)).get();

export type KeyRecord = NonNullable<Awaited<ReturnType<typeof keyByHash>>>;

/** Sets the key's `lastUsedAt` to `now`, unless it is less than `minimumMs` old. */
export const recordKeyUse = (db: Db, id: number, now: number, minimumMs: number) => {
	const cutoff = new Date(now - minimumMs).toISOString();
	return db
		.update(apiKeys)
		.set({ lastUsedAt: new Date(now).toISOString() })
		.where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, cutoff))))
		.run();
};
