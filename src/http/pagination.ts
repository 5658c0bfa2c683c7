import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { invalid } from "../models/error";
import { limits } from "../models/limits";
import { responseHeader } from "./responses";

const encoder = new TextEncoder();
const hmac = { name: "HMAC", hash: "SHA-256" };

// The HMAC key, imported once per isolate and secret value.
let signing: { secret: string; key: Promise<CryptoKey> } | undefined;
const signingKey = (secret: string | undefined) => {
	if (!secret) throw new Error("CURSOR_SECRET is not configured");
	if (signing?.secret !== secret) {
		signing = {
			secret,
			key: crypto.subtle.importKey("raw", encoder.encode(secret), hmac, false, ["sign"]),
		};
	}
	return signing.key;
};

/** 128 bits of HMAC-SHA256 over the list's path and the position, in base64url. */
const tagOf = async (c: Context<AppEnv>, after: number) => {
	const key = await signingKey(c.env.CURSOR_SECRET);
	const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${c.req.path}\n${after}`));
	return new Uint8Array(mac, 0, 16).toBase64({ alphabet: "base64url", omitPadding: true });
};

/** A cursor: the position it points after, in base 36, and its signature. */
const cursorPattern = /^([1-9a-z][0-9a-z]{0,10})\.([A-Za-z0-9_-]{22})$/;

/** The position a cursor points after, if this API signed it for this list; a `validation_error` otherwise. */
const decodeCursor = async (c: Context<AppEnv>, cursor: string) => {
	const [, position = "", tag] = cursorPattern.exec(cursor) ?? [];
	const after = Number.parseInt(position, 36);
	const expected = after <= limits.maxId && (await tagOf(c, after));
	if (!tag || !expected || !timingSafeEqualText(tag, expected)) {
		throw invalid("query.cursor", "is not a cursor this API issued");
	}
	return after;
};

const timingSafeEqualText = (a: string, b: string) =>
	a.length === b.length && crypto.subtle.timingSafeEqual(encoder.encode(a), encoder.encode(b));

const pageSize = { min: 1, max: 100, default: 20 } as const;

/** Query parameters every list operation takes: `limit` and the opaque `cursor` of the previous page. */
export const pageQuery = {
	limit: z
		.string()
		.regex(/^[0-9]+$/, "must be an integer")
		.transform(Number)
		.pipe(z.number().min(pageSize.min).max(pageSize.max))
		.default(pageSize.default)
		.openapi({
			type: "integer",
			minimum: pageSize.min,
			maximum: pageSize.max,
			default: pageSize.default,
			description: "Page size.",
			param: { name: "limit", in: "query", example: 20 },
		}),
	cursor: z
		.string()
		.optional()
		.openapi({
			description: 'Opaque cursor from the `Link: rel="next"` header of the previous page.',
			// No example: only the server issues cursors, so any fixed one would be a 400 to a tool that sends it.
			param: { name: "cursor", in: "query" },
		}),
};

export const linkHeader = {
	Link: responseHeader('RFC 8288 link to the next page (`rel="next"`); absent on the last page.', {
		optional: true,
	}),
};

/** A page of a list: the rows after `after` in key order, at most `limit` of them and one more if there is one. */
export type Page = { after: number; limit: number };

/** The rows of a list that could look only so far: the next page starts after `through`, whatever this one holds. */
type Window<T> = { rows: T[]; through?: number };

/** Answers a list with keyset pagination: `load` reads `limit + 1` rows; the extra proves a next page (`Link`). */
export const listPage = async <F, T>(
	c: Context<AppEnv>,
	{ limit, cursor, ...filter }: F & { limit: number; cursor?: string },
	load: (page: Omit<F, "limit" | "cursor"> & Page) => Promise<T[] | Window<T>>,
	positionOf: (row: T) => number,
): Promise<T[]> => {
	const after = cursor === undefined ? 0 : await decodeCursor(c, cursor);
	const loaded = await load({ ...filter, after, limit });
	const { rows, through } = Array.isArray(loaded) ? { rows: loaded } : loaded;
	const page = rows.slice(0, limit);
	const position = rows.length > limit ? positionOf(page[page.length - 1]) : through;
	if (position === undefined) return page;
	const next = new URL(c.req.url);
	next.searchParams.set("cursor", `${position.toString(36)}.${await tagOf(c, position)}`);
	next.searchParams.set("limit", String(limit));
	c.header("Link", `<${next.pathname}${next.search}>; rel="next"`);
	return page;
};
