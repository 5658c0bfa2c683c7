import { z } from "@hono/zod-openapi";
import { and, eq, lt, not, type SQL, sql } from "drizzle-orm";
import type { Context } from "hono";
import { preparedWrite, type Step } from "../db/batch";
import type { Db } from "../db/client";
import { exists } from "../db/conditional";
import { type Slot, slot, type Values } from "../db/prepared";
import type { Resource } from "../db/resource";
import { idempotencyKeys } from "../db/schema";
import type { AppEnv } from "../env";
import { durations, inWords } from "../models/limits";
import { ApiError } from "./errors";
import { optionalHeader } from "./validation";

// Idempotency-Key (API.md §6): a retry with the same key and body within the window replays the first response.

const windowMs = durations.idempotencyWindow;

/**
 * An operation's optional `Idempotency-Key` request header. Its example names the operation: one key is one
 * request, so examples sent as they stand must not share a key between operations.
 */
export const idempotencyHeader = (operationId: string) => ({
	"Idempotency-Key": optionalHeader(z.string().min(1).max(255)).openapi({
		param: {
			name: "Idempotency-Key",
			in: "header",
			example: `${operationId}-7f9c2ba4-e88f-4a1b-9d3c-2a8c5e6b1f00`,
		},
		description: `Makes retries safe: a repeat with the same key and body within ${inWords(windowMs)} replays the first response. A request that failed is not recorded, so its retry is tried afresh.`,
	}),
});

/** Documents the header that marks a replayed response. */
export const replayedHeader = {
	"Idempotency-Replayed": {
		description:
			"`true` when this is the stored response to an earlier request with the same key.",
		schema: { type: "string" as const, enum: ["true"] },
	},
};

/** A keyed request: its key, the hash of what it asks, and when it was made. */
export type Keyed = { key: string; requestHash: string; now: number };

/** JSON with object keys sorted, so that key order and whitespace do not make two bodies differ. */
const canonicalJson = (value: unknown): string => {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
	if (value !== null && typeof value === "object") {
		const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
		return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
	}
	return JSON.stringify(value);
};

/**
 * The request's key and the SHA-256 of its operation and validated body, when the client sent a key (validated by
 * the route: see `idempotent` in `apiRoute`; empty means absent).
 */
export const keyOf = async (
	c: Context<AppEnv>,
	body: unknown,
): Promise<Keyed | undefined> => {
	const key = c.req.header("Idempotency-Key") || undefined;
	if (key === undefined) return undefined;
	const text = `${c.req.method} ${c.req.path}\n${canonicalJson(body)}`;
	const digest = await crypto.subtle.digest(
		"SHA-256",
		new TextEncoder().encode(text),
	);
	const requestHash = [...new Uint8Array(digest)]
		.map((byte) => byte.toString(16).padStart(2, "0"))
		.join("");
	return { key, requestHash, now: c.var.now() };
};

/** The values of a keyed create's idempotency steps. */
type KeyValues = {
	key: string;
	requestHash: string;
	keyedAt: number;
	expiredBefore: number;
};

const keyValues = (keyed: Keyed): KeyValues => ({
	key: keyed.key,
	requestHash: keyed.requestHash,
	keyedAt: keyed.now,
	expiredBefore: keyed.now - windowMs,
});

const $ = slot<KeyValues>();
const record = eq(idempotencyKeys.key, $("key"));

/**
 * What a keyed create adds to its write: `forgetExpired` and `stored` come before the change, which runs only
 * while the key is `unused`; `remember(resource)` is the last link of the change's chain and stores the response
 * the create produced: the resource it inserted, as the API answers it, or the `body` built from its row.
 * Without a key, every step is absent.
 */
const idempotencySteps = (db: Db, keyed: boolean) =>
	keyed
		? {
				// The Cron Trigger prunes expired records in bulk; this forgets only the one this key may hit.
				forgetExpired: db
					.delete(idempotencyKeys)
					.where(
						and(record, lt(idempotencyKeys.createdAt, $("expiredBefore"))),
					),
				stored: db.select().from(idempotencyKeys).where(record),
				unused: not(exists(idempotencyKeys, record)),
				remember:
					(resource: Resource, body = resource.json) =>
					(changed: SQL) =>
						db.insert(idempotencyKeys).select(
							resource
								.select(db, {
									key: sql`${$("key")}`.as("key"),
									requestHash: sql`${$("requestHash")}`.as("request_hash"),
									body: sql`${body}`.as("body"),
									etag: sql`${resource.etag}`.as("etag"),
									createdAt: sql`${$("keyedAt")}`.as("created_at"),
								})
								.where(and(eq(resource.key, resource.newest), changed)),
						),
			}
		: { unused: sql`1`, remember: (..._: [Resource, SQL?]) => undefined };

/** The steps a create's write takes from its idempotency key (see {@link keyedCreate}). */
export type KeySteps = ReturnType<typeof idempotencySteps>;

/**
 * A create that takes an `Idempotency-Key`: a {@link preparedWrite} of the steps `build` makes with the key's
 * steps, prepared once with them and once without. Answers each step's result by its name.
 */
export const keyedCreate = <
	// The key's own values take their names.
	V extends Values & { [K in keyof KeyValues]?: never } = Record<never, never>,
	S extends Record<string, Step> = Record<string, Step>,
>(
	build: (db: Db, $: Slot<V>, key: KeySteps) => S,
) => {
	const create = preparedWrite((db, $: Slot<V>, shape: "keyed" | "unkeyed") =>
		build(db, $, idempotencySteps(db, shape === "keyed")),
	);
	return (db: Db, values: NoInfer<V>, keyed: Keyed | undefined) =>
		keyed === undefined
			? create(db, "unkeyed", values)
			: create(db, "keyed", { ...values, ...keyValues(keyed) });
};

type StoredResponse = typeof idempotencyKeys.$inferSelect;

/**
 * The stored response of an earlier request with the same key, marked as replayed; the same key with
 * another request is refused.
 */
const replay = <T>(
	c: Context<AppEnv>,
	stored: StoredResponse,
	keyed: Keyed | undefined,
): T & { etag: string } => {
	if (stored.requestHash !== keyed?.requestHash) {
		throw new ApiError("idempotency_key_reused");
	}
	c.header("Idempotency-Replayed", "true");
	return { ...JSON.parse(stored.body), etag: stored.etag };
};

/** A create's outcome: the row it inserted, else the response stored for its key, else none (it was refused). */
export const createdOrStored = <T>(
	inserted: T[],
	stored: StoredResponse[] | undefined,
): { created: T } | { stored: StoredResponse } | undefined => {
	const [created] = inserted;
	if (created) return { created };
	const [record] = stored ?? [];
	return record && { stored: record };
};

/** What a keyed create answers: the resource it made, or the stored response of an earlier request with its key. */
export const createdOrReplayed = <T>(
	c: Context<AppEnv>,
	keyed: Keyed | undefined,
	outcome: { created: T & { etag: string } } | { stored: StoredResponse },
): T & { etag: string } =>
	"created" in outcome ? outcome.created : replay<T>(c, outcome.stored, keyed);

/** Deletes the records whose window has closed by `now`: the Cron Trigger's work. */
export const pruneIdempotencyKeys = (db: Db, now: number) =>
	db
		.delete(idempotencyKeys)
		.where(lt(idempotencyKeys.createdAt, now - windowMs));
