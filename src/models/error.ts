import { z } from "@hono/zod-openapi";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type ErrorCode, errorCodes, statusOf } from "./error-codes";

export const ErrorDetail = z
	.object({
		path: z
			.string()
			.openapi({
				description: "Where the problem is, e.g. `body.name` or `query.limit`.",
				example: "body.name",
			}),
		message: z.string().openapi({ example: "Too small: expected string to have >=1 characters" }),
	})
	.openapi("ErrorDetail");
export type ErrorDetail = z.infer<typeof ErrorDetail>;

/** The one shape of every error response. */
export const ErrorBody = z
	.object({
		code: z.string().openapi({
			description: `Stable, machine-readable error code: ${Object.entries(errorCodes)
				.map(([code, [status]]) => `\`${code}\` (${status})`)
				.join(", ")}.`,
			example: "validation_error",
		}),
		message: z
			.string()
			.openapi({ description: "Human-readable explanation.", example: "The request is invalid." }),
		status: z.int().openapi({ description: "Equal to the HTTP status code.", example: 400 }),
		details: z
			.array(ErrorDetail)
			.optional()
			.openapi({ description: "Per-field problems, for validation errors." }),
	})
	.openapi("Error");
export type ErrorBody = z.infer<typeof ErrorBody>;

/** A failure the client can act on; thrown anywhere, rendered once (src/http/errors.ts). */
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

export const invalid = (path: string, message: string) =>
	new ApiError("validation_error", undefined, [{ path, message }]);
