import { getOpenApiMetadata } from "@asteasolutions/zod-to-openapi";
import { z } from "@hono/zod-openapi";
import { ErrorBody } from "../models/error";
import { type ErrorCode, errorCodes, type StatusOf, statusOf } from "../models/error-codes";

/** A response header as the document states it: always sent unless `optional`, a string unless `type` says otherwise. */
export const responseHeader = (
	description: string,
	{ optional, ...schema }: { optional?: true; type?: "integer"; enum?: string[] } = {},
) => ({
	...(!optional && { required: true }),
	description,
	schema: { type: "string" as const, ...schema },
});

type ResponseHeader = ReturnType<typeof responseHeader>;

/** Headers on every response of the API, errors included. */
export const everyResponseHeaders = {
	"X-Request-Id": responseHeader(
		"Names this request in the logs; quote it when reporting a problem.",
	),
};

/** The headers an error code's response carries besides the `Error` body. */
const errorHeaders: Partial<Record<ErrorCode, Record<string, ResponseHeader>>> = {
	unauthorized: {
		"WWW-Authenticate": responseHeader(
			'How to authenticate: the `Bearer` scheme, with `error="invalid_request"` when the `Authorization` header is a malformed Bearer credential and `error="invalid_token"` when the token sent is not accepted (RFC 6750 §3.1).',
		),
	},
	rate_limited: {
		"Retry-After": responseHeader("Seconds to wait before trying again.", { type: "integer" }),
	},
	unavailable: {
		"Retry-After": responseHeader(
			"Seconds to wait before trying again (a write: with the same `Idempotency-Key`).",
			{ type: "integer" },
		),
	},
};

/** The example a schema declares; for a list, a list of its item's example. */
export const exampleOf = (schema: z.ZodType): unknown =>
	getOpenApiMetadata(schema).example ??
	(schema instanceof z.ZodArray ? [exampleOf(schema.element as z.ZodType)] : undefined);

/** A JSON response or request content entry, for route definitions, with its schema's example. */
export const jsonContent = <T extends z.ZodType>(
	schema: T,
	description: string,
	example = exampleOf(schema),
) => ({ description, content: { "application/json": { schema, example } } });

/** A 201 response: the new resource, and the `Location` it lives at. */
export const createdContent = <T extends z.ZodType>(schema: T, description: string) => ({
	...jsonContent(schema, description),
	headers: { Location: responseHeader("Where the new resource lives.") },
});

/** A required JSON request body, with its schema's example unless the operation needs its own. */
export const jsonBody = <T extends z.ZodType>(
	schema: T,
	description: string,
	example = exampleOf(schema),
) => ({ ...jsonContent(schema, description, example), required: true });

/** Documents an operation's error responses from its error codes, grouping codes that share a status. */
export const errorResponses = <const C extends ErrorCode>(...codes: C[]) =>
	Object.fromEntries(
		[...Map.groupBy(new Set(codes), statusOf)].map(([status, group]) => [
			status,
			{
				...jsonContent(ErrorBody, `Error: ${group.map((code) => `\`${code}\``).join(", ")}.`, {
					code: group[0],
					message: errorCodes[group[0]][1],
					status,
				}),
				headers: Object.assign({}, ...group.map((code) => errorHeaders[code])),
			},
		]),
	) as Record<
		StatusOf<C>,
		ReturnType<typeof jsonContent<typeof ErrorBody>> & { headers: Record<string, ResponseHeader> }
	>;
