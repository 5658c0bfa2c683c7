import { and, eq, lt, type SQL, sql } from "drizzle-orm";
import { durations } from "../models/limits";
import type { Db } from "./client";
import { placeholders } from "./prepared";
import type { Resource } from "./resource";
import { idempotencyKeys } from "./schema";

// The records of creates made with an `Idempotency-Key` (API.md §6): written in the create's own batch, so a crash
// cannot separate a resource from its record.

const windowMs = durations.idempotencyWindow;

/** A keyed request: its key, and the hash of what it asks. */
export type IdempotencyKey = { key: string; requestHash: string };

/** The stored response of an earlier request with the same key. */
export type StoredResponse = typeof idempotencyKeys.$inferSelect;

/** The values a keyed create binds to its key's steps. */
type KeyValues = {
	key: string;
	requestHash: string;
	keyedAt: number;
	expiredBefore: number;
};

/** The values of the key's steps for a request made at `now`. */
export const keyValues = (
	{ key, requestHash }: IdempotencyKey,
	now: number,
): KeyValues => ({
	key,
	requestHash,
	keyedAt: now,
	expiredBefore: now - windowMs,
});

const $ = placeholders<KeyValues>();
const record = eq(idempotencyKeys.key, $.key);

/**
 * The steps a keyed create adds to its batch (built once, see src/db/prepared.ts): `forgetExpired` and `stored`
 * run before the create, which runs only while the key is `unused`; `remember` stores, as the last link of the
 * create, the resource it made as the API answers it (or `body`).
 */
export const keySteps = (db: Db) => ({
	// The Cron Trigger prunes expired records in bulk; this forgets only the one this key may hit.
	forgetExpired: db
		.delete(idempotencyKeys)
		.where(and(record, lt(idempotencyKeys.createdAt, $.expiredBefore))),
	stored: db.select().from(idempotencyKeys).where(record),
	unused: sql`NOT EXISTS (SELECT 1 FROM ${idempotencyKeys} WHERE ${record})`,
	remember: (resource: Resource, body: SQL, created: SQL) =>
		db.insert(idempotencyKeys).select(
			resource
				.select(db, {
					key: sql`${$.key}`.as("key"),
					requestHash: sql`${$.requestHash}`.as("request_hash"),
					body: sql`${body}`.as("body"),
					etag: sql`${resource.etag}`.as("etag"),
					createdAt: sql`${$.keyedAt}`.as("created_at"),
				})
				.where(and(eq(resource.key, resource.newest), created)),
		),
});

/** Deletes the records whose window has closed by `now`: the Cron Trigger's work. */
export const pruneIdempotencyKeys = (db: Db, now: number) =>
	db
		.delete(idempotencyKeys)
		.where(lt(idempotencyKeys.createdAt, now - windowMs));
