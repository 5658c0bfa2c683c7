import { z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { hexOf, sha256 } from "../models/digest";
import { durations, inWords } from "../models/limits";
import { isObject } from "./json-body";
import { responseHeader } from "./responses";
import { optionalHeader } from "./validation";

/** An operation's `Idempotency-Key` header; its example names the operation, so that no two examples share a key. */
export const idempotencyHeader = (operationId: string) => ({
	"Idempotency-Key": optionalHeader(
		z
			.string()
			.min(1)
			.max(255)
			.regex(/^[\x20-\x7e]+$/, "must be printable ASCII"),
	).openapi({
		param: {
			name: "Idempotency-Key",
			in: "header",
			example: `${operationId}-7f9c2ba4-e88f-4a1b-9d3c-2a8c5e6b1f00`,
		},
		description: `Makes retries safe: a repeat with this key and the same body within ${inWords(durations.idempotencyWindow)} replays the first answer (a failed request is not kept).`,
	}),
});

export const replayedHeader = {
	"Idempotency-Replayed": responseHeader(
		"`true` when this is the stored response to an earlier request with the same key.",
		{ optional: true, enum: ["true"] },
	),
};

/** JSON with each object's keys sorted, so that key order and whitespace do not make two bodies differ. */
const canonicalJson = (value: unknown) =>
	JSON.stringify(value, (_, member) =>
		isObject(member)
			? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : 1)))
			: member,
	);

/** Sets the request's `Idempotency-Key` (empty is absent) and the hash of its operation and body (src/db/write.ts). */
export const idempotency: MiddlewareHandler<AppEnv> = async (c, next) => {
	const key = c.req.header("Idempotency-Key") || undefined;
	// A body that is not JSON never reaches the create: the route's validator answers it.
	const body: unknown = key && (await c.req.json().catch(() => undefined));
	if (key !== undefined && body !== undefined) {
		const text = `${c.req.method} ${c.req.path}\n${canonicalJson(body)}`;
		// Scoped per client (a key by its id, which a roll keeps): the same key from two clients is two requests.
		const scoped = `${c.var.client ? (c.var.client.key ?? "root") : "anonymous"}:${key}`;
		c.set("idempotencyKey", { key: scoped, requestHash: hexOf(await sha256(text)) });
	}
	await next();
};

/** A create's 201 headers: where the new resource is, and `Idempotency-Replayed` on a replay of an earlier answer. */
export const createdHeaders = (location: string, replayed: boolean) => ({
	Location: location,
	...(replayed && { "Idempotency-Replayed": "true" }),
});
