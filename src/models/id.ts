import { z } from "@hono/zod-openapi";
import { limits } from "./limits";

const int64 = { type: "integer", format: "int64", minimum: 1, maximum: limits.maxId } as const;

/** The key of every resource listed by id: what its list walks, merges and pages by. */
export const byId = (row: { id: number }) => row.id;

/** An identifier in a JSON body or response. */
export const Id = z.int().min(1).max(limits.maxId).openapi(int64);

/** An identifier in a path or query string: decimal digits only (`1e3`, `0x10`, ` 7` are refused, not coerced). */
export const idParam = (name: string, location: "path" | "query" = "path") =>
	z
		.string()
		.regex(/^[1-9][0-9]*$/, "must be a positive integer")
		.transform(Number)
		.pipe(z.number().max(limits.maxId, `must be at most ${limits.maxId}`))
		.openapi({ ...int64, param: { name, in: location, example: 1 } });
