import { z } from "@hono/zod-openapi";
import type { Context } from "hono";

/** How long a response stays replayable. */
export const idempotencyWindowMs = 24 * 60 * 60 * 1000;

/** The optional `Idempotency-Key` request header. */
export const idempotencyHeaders = z.object({
	"Idempotency-Key": z
		.string()
		.min(1)
		.max(255)
		.optional()
		.openapi({
			param: { name: "Idempotency-Key", in: "header" },
			description:
				"Makes retries safe: a repeat with the same key and body within 24 hours replays the placed order's response. A placement that failed is not recorded, so its retry is tried afresh.",
			example: "7f9c2ba4-e88f-4a1b-9d3c-2a8c5e6b1f00",
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

/** SHA-256 (hex) of the operation and the body as the client sent it, before defaults are applied. */
export const requestHash = async (c: Context) => {
	const text = `${c.req.method} ${c.req.path}\n${canonicalJson(await c.req.json())}`;
	const digest = await crypto.subtle.digest(
		"SHA-256",
		new TextEncoder().encode(text),
	);
	return [...new Uint8Array(digest)]
		.map((byte) => byte.toString(16).padStart(2, "0"))
		.join("");
};
