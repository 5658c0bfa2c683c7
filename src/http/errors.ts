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

/** The codes of the framework's exceptions (body parsing, media type gate); any other is unexpected. */
const httpExceptionCodes: Partial<Record<number, ErrorCode>> = {
	400: "malformed_json",
	415: "unsupported_media_type",
};

export const onError: ErrorHandler = (error, c) => {
	const code = error instanceof HTTPException ? httpExceptionCodes[error.status] : undefined;
	if (code) return errorResponse(c, new ApiError(code));
	if (error instanceof ApiError) return errorResponse(c, error);
	const requestId: string = c.get("requestId");
	const part = failedPart(error);
	// Locally, the stack on lines of its own, which `wrangler dev` maps to src/…ts:line; deployed, one JSON line.
	if (c.env.LOCAL_DEVELOPMENT === "true") {
		console.error(JSON.stringify({ level: "error", part, requestId }), `\n${loggable(error)}`);
	} else log("error", { part, requestId, error: loggable(error) });
	const failure = part
		? unavailable(unavailableMessage(c.req.method))
		: new ApiError("internal_error", `Unexpected error; quote request id ${requestId}.`);
	return errorResponse(c, failure);
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
