import type { z } from "@hono/zod-openapi";
import { ErrorBody } from "../models/error";
import { type ErrorCode, errorStatus } from "./errors";

/** A JSON response or request content entry, for route definitions. */
export const jsonContent = <T extends z.ZodType>(
	schema: T,
	description: string,
) => ({
	description,
	content: { "application/json": { schema } },
});

/** A 201 response: the new resource, and the `Location` it lives at. */
export const createdContent = <T extends z.ZodType>(
	schema: T,
	description: string,
	headers: Record<string, { description: string; schema: object }> = {},
) => ({
	...jsonContent(schema, description),
	headers: {
		Location: {
			required: true,
			description: "Where the new resource lives.",
			schema: { type: "string" as const },
		},
		...headers,
	},
});

/** A required JSON request body. */
export const jsonBody = <T extends z.ZodType>(
	schema: T,
	description: string,
) => ({
	...jsonContent(schema, description),
	required: true,
});

type StatusOf<C extends ErrorCode> = (typeof errorStatus)[C];

/**
 * Documents the error responses of an operation from the error codes it can answer with,
 * grouping codes that share a status.
 */
export const errorResponses = <const C extends ErrorCode>(...codes: C[]) => {
	const byStatus = new Map<number, ErrorCode[]>();
	for (const code of new Set(codes)) {
		byStatus.set(errorStatus[code], [
			...(byStatus.get(errorStatus[code]) ?? []),
			code,
		]);
	}
	return Object.fromEntries(
		[...byStatus].map(([status, group]) => [
			status,
			jsonContent(
				ErrorBody,
				`Error: ${group.map((code) => `\`${code}\``).join(", ")}.`,
			),
		]),
	) as Record<StatusOf<C>, ReturnType<typeof jsonContent<typeof ErrorBody>>>;
};
