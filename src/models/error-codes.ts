import type { ContentfulStatusCode } from "hono/utils/http-status";
import { limits } from "./limits";

/** Every error code, its status and its message: the document's example, and an `ApiError`'s unless it says more. */
export const errorCodes = {
	validation_error: [400, "The request is invalid."],
	malformed_json: [400, "The request body is not valid JSON."],
	unauthorized: [401, "This operation needs a valid `Authorization: Bearer <token>` header."],
	forbidden: [403, "This credential lacks the scope this operation needs."],
	not_found: [404, "Nothing exists at this path."],
	method_not_allowed: [405, "Allowed methods: GET, PUT, PATCH, DELETE."],
	category_exists: [409, 'A category named "Dog" already exists.'],
	category_in_use: [409, "Category 1 still has pets."],
	pet_has_open_orders: [409, "Pet 1 has open orders; complete or cancel them first."],
	pet_not_available: [409, "Pet 1 is not available."],
	insufficient_stock: [409, "Pet 1 has fewer than 2 in stock."],
	order_complete: [409, "Order 1 is complete and final."],
	webhook_limit: [409, `This client has ${limits.webhooks} webhooks already; delete one first.`],
	gone: [410, "This operation has been retired; see its Sunset header."],
	precondition_failed: [412, "The resource changed since the ETag in If-Match; read it again."],
	payload_too_large: [413, `Request bodies are limited to ${limits.requestBodyBytes} bytes.`],
	unsupported_media_type: [
		415,
		"The request body must be application/json, or absent where an operation takes none.",
	],
	unknown_category: [422, "Category 1 does not exist."],
	unknown_pet: [422, "Pet 1 does not exist."],
	idempotency_key_reused: [422, "This Idempotency-Key was used with a different request."],
	rate_limited: [429, "Too many requests from this client; retry later."],
	internal_error: [500, "Unexpected error; quote request id 4f0c7e5e-6a57-4c6e-9d1b-8f0e2a7c3b21."],
	unavailable: [503, "The service is briefly unavailable; retry after Retry-After."],
} as const satisfies Record<string, readonly [ContentfulStatusCode, string]>;

export type ErrorCode = keyof typeof errorCodes;

export type StatusOf<C extends ErrorCode> = (typeof errorCodes)[C][0];
export const statusOf = <C extends ErrorCode>(code: C): StatusOf<C> => errorCodes[code][0];
