import { lt } from "drizzle-orm";
import { durations } from "../models/limits";
import type { Db } from "./client";
import { idempotencyKeys } from "./schema";

// Records of keyed creates, written in the create's own batch (src/db/write.ts): no crash can separate the two.

/** How long a record is replayed. */
export const idempotencyWindowMs = durations.idempotencyWindow;

/** A keyed request: its key, and the hash of what it asks. */
export type IdempotencyKey = { key: string; requestHash: string };

/** Deletes the records whose window has closed by `now`: the Cron Trigger's work. */
export const pruneIdempotencyKeys = (db: Db, now: number) =>
	db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, now - idempotencyWindowMs));
