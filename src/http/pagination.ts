import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { limits } from "../models/limits";

const cursorPrefix = "after:";

const encodeCursor = (id: number) =>
	btoa(`${cursorPrefix}${id}`)
		.replaceAll("+", "-")
		.replaceAll("/", "_")
		.replaceAll("=", "");

/** The id a cursor we issued points after, or undefined for anything else. */
const decodeCursor = (cursor: string): number | undefined => {
	if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) return undefined;
	let text: string;
	try {
		text = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
	} catch {
		return undefined;
	}
	const digits = text.startsWith(cursorPrefix)
		? text.slice(cursorPrefix.length)
		: "";
	if (!/^[1-9][0-9]*$/.test(digits)) return undefined;
	const id = Number(digits);
	return id <= limits.maxId ? id : undefined;
};

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
			param: { name: "limit", in: "query" },
		}),
	cursor: z
		.string()
		.transform((cursor, ctx) => {
			const after = decodeCursor(cursor);
			if (after === undefined)
				ctx.addIssue({
					code: "custom",
					message: "is not a cursor this API issued",
				});
			return after ?? 0;
		})
		.optional()
		.openapi({
			type: "string",
			description:
				'Opaque cursor from the `Link: rel="next"` header of the previous page.',
			param: { name: "cursor", in: "query" },
		}),
};

/** Documents the `Link` header that announces the next page. */
export const linkHeader = {
	Link: {
		description:
			'RFC 8288 link to the next page (`rel="next"`); absent on the last page.',
		schema: { type: "string" as const },
	},
};

/**
 * Keyset pagination: `rows` holds up to `limit + 1` rows in key order; the extra row only proves that a next
 * page exists, and its presence sets the `Link` header to a cursor after the page's last key.
 */
export const paginate = <T>(
	c: Context,
	rows: T[],
	limit: number,
	keyOf: (row: T) => number,
): T[] => {
	if (rows.length <= limit) return rows;
	const page = rows.slice(0, limit);
	const next = new URL(c.req.url);
	next.searchParams.set("cursor", encodeCursor(keyOf(page[page.length - 1])));
	next.searchParams.set("limit", String(limit));
	c.header("Link", `<${next.pathname}${next.search}>; rel="next"`);
	return page;
};

/** The key of every resource listed by id. */
export const byId = (row: { id: number }) => row.id;
