import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { IdempotencyKey, StoredResponse } from "../db/idempotency";
import type { Created, WriteContext } from "../db/write";
import type { AppEnv } from "../env";
import { ApiError } from "../models/error";
import { durations, inWords } from "../models/limits";
import { writeContext } from "./conditional";
import { optionalHeader } from "./validation";

// Idempotency-Key (API.md §6): a retry with the same key and body within the window replays the first response.

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
		description: `Makes retries safe: a repeat with the same key and body within ${inWords(durations.idempotencyWindow)} replays the first response. A request that failed is not recorded, so its retry is tried afresh.`,
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
const keyOfRequest = async (
	c: Context<AppEnv>,
): Promise<IdempotencyKey | undefined> => {
	const key = c.req.header("Idempotency-Key") || undefined;
	if (key === undefined) return undefined;
	const body = (c.req.valid as (target: "json") => unknown)("json");
	const text = `${c.req.method} ${c.req.path}\n${canonicalJson(body)}`;
	const digest = await crypto.subtle.digest(
		"SHA-256",
		new TextEncoder().encode(text),
	);
	return { key, requestHash: new Uint8Array(digest).toHex() };
};

/** The stored response of an earlier request with the same key, marked as replayed; another request is refused. */
const replay = <T>(
	c: Context<AppEnv>,
	stored: StoredResponse,
	key: IdempotencyKey | undefined,
): T => {
	if (stored.requestHash !== key?.requestHash) {
		throw new ApiError("idempotency_key_reused");
	}
	c.header("Idempotency-Replayed", "true");
	return { ...JSON.parse(stored.body), etag: stored.etag };
};

/**
 * Runs a create under the request's `Idempotency-Key`, if it has one: answers what the create made, or replays the
 * response stored for an earlier request with the same key and body.
 */
export const idempotent = async <T>(
	c: Context<AppEnv>,
	create: (ctx: WriteContext) => Promise<Created<T>>,
): Promise<T> => {
	const key = await keyOfRequest(c);
	const outcome = await create({ ...writeContext(c), key });
	return "created" in outcome
		? outcome.created
		: replay<T>(c, outcome.stored, key);
};
