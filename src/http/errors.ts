import { DrizzleQueryError } from "drizzle-orm/errors";
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorBody, ErrorDetail } from "../models/error";

/**
 * Every error code the API answers with, its HTTP status and its message (the document's example, and what
 * an `ApiError` says unless it names something more precise): the one table behind §8 of the contract.
 */
export const errorCodes = {
	validation_error: [400, "The request is invalid."],
	malformed_json: [400, "The request body is not valid JSON."],
	unauthorized: [
		401,
		"Writes need a valid `Authorization: Bearer <token>` header.",
	],
	not_found: [404, "Pet 1 does not exist."],
	method_not_allowed: [405, "Allowed methods: GET, PUT, PATCH, DELETE."],
	category_exists: [409, 'A category named "Dog" already exists.'],
	category_in_use: [409, "Category 1 still has pets."],
	pet_has_open_orders: [
		409,
		"Pet 1 has open orders; complete or cancel them first.",
	],
	pet_not_available: [409, "Pet 1 is not available."],
	insufficient_stock: [409, "Pet 1 has fewer than 2 in stock."],
	order_complete: [409, "Order 1 is complete and final."],
	webhook_limit: [409, "There are already 20 webhooks; delete one first."],
	gone: [410, "This operation was retired on 2027-06-30."],
	precondition_failed: [
		412,
		"The resource changed since the ETag in If-Match; read it again.",
	],
	payload_too_large: [413, "Request bodies are limited to 16384 bytes."],
	unsupported_media_type: [415, "The request body must be application/json."],
	unknown_category: [422, "Category 1 does not exist."],
	unknown_pet: [422, "Pet 1 does not exist."],
	idempotency_key_reused: [
		422,
		"This Idempotency-Key was used with a different request.",
	],
	rate_limited: [429, "Too many writes from this client; retry later."],
	internal_error: [
		500,
		"Unexpected error; quote request id 4f0c7e5e-6a57-4c6e-9d1b-8f0e2a7c3b21.",
	],
	unavailable: [503, "The database is unreachable."],
} as const satisfies Record<string, readonly [ContentfulStatusCode, string]>;

export type ErrorCode = keyof typeof errorCodes;

/** The HTTP status of an error code. */
export type StatusOf<C extends ErrorCode> = (typeof errorCodes)[C][0];
export const statusOf = <C extends ErrorCode>(code: C): StatusOf<C> =>
	errorCodes[code][0];

/** A failure the client can act on; thrown anywhere, rendered once by {@link onError}. */
export class ApiError extends Error {
	readonly status: ContentfulStatusCode;

	constructor(
		readonly code: ErrorCode,
		message: string = errorCodes[code][1],
		readonly details?: ErrorDetail[],
		readonly headers?: Record<string, string>,
	) {
		super(message);
		this.status = statusOf(code);
	}
}

const errorBody = (
	code: ErrorCode,
	message: string,
	details?: ErrorDetail[],
): ErrorBody => ({
	code,
	message,
	status: statusOf(code),
	...(details && { details }),
});

/** Renders through the context, so headers set by middleware (request id, CORS, …) are kept. */
const errorResponse = (c: Context, error: ApiError) =>
	c.json(
		errorBody(error.code, error.message, error.details),
		error.status,
		error.headers,
	);

/**
 * Framework exceptions (body parsing, media type gate) carry no code of ours: name them here. Any other is
 * unexpected, and is answered like any other failure.
 */
const fromHttpException = (error: HTTPException): ApiError | undefined => {
	switch (error.status) {
		case 400:
			return new ApiError("malformed_json");
		case 415:
			return new ApiError("unsupported_media_type");
	}
};

/**
 * An unexpected error as its log line shows it. A failed statement's message carries its bound parameters
 * (drizzle's `params:`), which can hold secrets: it is logged by its query text, stack and cause instead.
 */
const loggable = (error: unknown): string => {
	if (error instanceof DrizzleQueryError) {
		const frames = error.stack
			?.split("\n")
			.filter((line) => /^\s+at /.test(line));
		return [
			`DrizzleQueryError: Failed query: ${error.query}`,
			...(frames ?? []),
			`Caused by: ${loggable(error.cause)}`,
		].join("\n");
	}
	return error instanceof Error
		? (error.stack ?? String(error))
		: String(error);
};

export const onError: ErrorHandler = (error, c) => {
	const known =
		error instanceof HTTPException ? fromHttpException(error) : error;
	if (known instanceof ApiError) return errorResponse(c, known);
	const requestId: string = c.get("requestId");
	console.error(
		JSON.stringify({
			level: "error",
			requestId,
			error: loggable(error),
		}),
	);
	return errorResponse(
		c,
		new ApiError(
			"internal_error",
			`Unexpected error; quote request id ${requestId}.`,
		),
	);
};

export const onNotFound: NotFoundHandler = (c) =>
	errorResponse(c, new ApiError("not_found", `No resource at ${c.req.path}.`));

/** The 405 answer of Hono's `methodNotAllowed` middleware, as an `Error` with `Allow`. */
export const onMethodNotAllowed = (c: Context, methods: string[]) => {
	const allow = methods.join(", ");
	return errorResponse(
		c,
		new ApiError(
			"method_not_allowed",
			`Allowed methods: ${allow}.`,
			undefined,
			{
				Allow: allow,
			},
		),
	);
};
