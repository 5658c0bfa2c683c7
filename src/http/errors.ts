import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorBody, ErrorDetail } from "../models/error";

/** Every error code the API answers with, and its HTTP status: the one table behind §8 of the contract. */
export const errorStatus = {
	validation_error: 400,
	malformed_json: 400,
	unauthorized: 401,
	not_found: 404,
	method_not_allowed: 405,
	category_exists: 409,
	category_in_use: 409,
	pet_has_open_orders: 409,
	pet_not_available: 409,
	insufficient_stock: 409,
	order_complete: 409,
	gone: 410,
	precondition_failed: 412,
	payload_too_large: 413,
	unsupported_media_type: 415,
	unknown_category: 422,
	unknown_pet: 422,
	idempotency_key_reused: 422,
	rate_limited: 429,
	internal_error: 500,
	unavailable: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof errorStatus;

/** A failure the client can act on; thrown anywhere, rendered once by {@link onError}. */
export class ApiError extends Error {
	readonly status: ContentfulStatusCode;

	constructor(
		readonly code: ErrorCode,
		message: string,
		readonly details?: ErrorDetail[],
		readonly headers?: Record<string, string>,
	) {
		super(message);
		this.status = errorStatus[code];
	}
}

const errorBody = (
	code: ErrorCode,
	message: string,
	details?: ErrorDetail[],
): ErrorBody => ({
	code,
	message,
	status: errorStatus[code],
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
			return new ApiError(
				"malformed_json",
				"The request body is not valid JSON.",
			);
		case 415:
			return new ApiError(
				"unsupported_media_type",
				"The request body must be application/json.",
			);
	}
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
			error: error.stack ?? String(error),
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
