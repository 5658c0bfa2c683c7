import type { z } from "@hono/zod-openapi";
import { ErrorBody } from "../models/error";
import { type ErrorCode, errorStatus } from "./errors";

/** A response header as the document states it. */
export type ResponseHeader = {
	description: string;
	required?: boolean;
	schema: { type: "string" | "integer" };
};

/** Headers on every response of the API, errors included. */
export const everyResponseHeaders = {
	"X-Request-Id": {
		required: true,
		description:
			"Names this request in the logs; quote it when reporting a problem.",
		schema: { type: "string" },
	},
} satisfies Record<string, ResponseHeader>;

/** The headers an error code's response carries besides the `Error` body. */
const errorHeaders: Partial<Record<ErrorCode, Record<string, ResponseHeader>>> =
	{
		unauthorized: {
			"WWW-Authenticate": {
				required: true,
				description: "How to authenticate: the `Bearer` scheme.",
				schema: { type: "string" },
			},
		},
		rate_limited: {
			"Retry-After": {
				required: true,
				description: "Seconds to wait before writing again.",
				schema: { type: "integer" },
			},
		},
	};

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
	headers: Record<string, ResponseHeader> = {},
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
			{
				...jsonContent(
					ErrorBody,
					`Error: ${group.map((code) => `\`${code}\``).join(", ")}.`,
				),
				headers: Object.assign(
					{},
					...group.map((code) => errorHeaders[code]),
				) as Record<string, ResponseHeader>,
			},
		]),
	) as Record<
		StatusOf<C>,
		ReturnType<typeof jsonContent<typeof ErrorBody>> & {
			headers: Record<string, ResponseHeader>;
		}
	>;
};
