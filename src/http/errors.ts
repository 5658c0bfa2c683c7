import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { ApiError, type ErrorBody, type ErrorDetail } from "../models/error";
import { type ErrorCode, statusOf } from "../models/error-codes";
import { log, loggable } from "./log";
import { failedPart, unavailable, unavailableMessage } from "./platform";

/** The `Error` body of an error code, as every error response carries it. */
export const errorBody = (
	code: ErrorCode,
	message: string,
	details?: ErrorDetail[],
): ErrorBody => ({ code, message, status: statusOf(code), ...(details && { details }) });

/** Renders through the context, so headers set by middleware (request id, CORS, …) are kept. */
const errorResponse = (c: Context, error: ApiError) =>
	c.json(errorBody(error.code, error.message, error.details), error.status, error.headers);

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

export const onError: ErrorHandler = (error, c) => {
	const known = error instanceof HTTPException ? fromHttpException(error) : error;
	if (known instanceof ApiError) return errorResponse(c, known);
	const requestId: string = c.get("requestId");
	const part = failedPart(error);
	// Locally, the stack on lines of its own, which `wrangler dev` maps to src/…ts:line; deployed, one JSON line.
	if (c.env.LOCAL_DEVELOPMENT === "true") {
		console.error(JSON.stringify({ level: "error", part, requestId }), `\n${loggable(error)}`);
	} else log("error", { part, requestId, error: loggable(error) });
	if (part) return errorResponse(c, unavailable(unavailableMessage(c.req.method)));
	return errorResponse(
		c,
		new ApiError("internal_error", `Unexpected error; quote request id ${requestId}.`),
	);
};

export const onNotFound: NotFoundHandler = (c) =>
	errorResponse(c, new ApiError("not_found", `No resource at ${c.req.path}.`));

/** The 405 answer of Hono's `methodNotAllowed` middleware, as an `Error` with `Allow`. */
export const onMethodNotAllowed = (c: Context, methods: string[]) => {
	const allow = methods.join(", ");
	return errorResponse(
		c,
		new ApiError("method_not_allowed", `Allowed methods: ${allow}.`, undefined, { Allow: allow }),
	);
};
