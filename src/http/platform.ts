import { isD1Unavailable } from "../db/d1-errors";
import { ApiError } from "../models/error";
import { isWrite } from "./methods";

/** The parts of the platform the API depends on, as the log names them. */
export type Part = "d1" | "durable-object" | "queue";

/** Seconds a client is asked to wait after a platform failure: longer than the read retry budget. */
const retryAfterSeconds = 5;

/** The platform part `error` says failed, if any: a Durable Object's, unless `remote` (its own code threw). */
export const failedPart = (error: unknown): Part | undefined => {
	if (
		error instanceof Error &&
		!("remote" in error && error.remote) &&
		(("retryable" in error && error.retryable) || ("overloaded" in error && error.overloaded))
	) {
		return "durable-object";
	}
	if (isD1Unavailable(error)) return "d1";
};

/** The 503 after a platform failure, with the `Retry-After` a client is asked to wait. */
export const unavailable = (message: string) =>
	new ApiError("unavailable", message, undefined, { "Retry-After": String(retryAfterSeconds) });

/** What a 503 after a platform failure says: a write's message says what its client can safely do. */
export const unavailableMessage = (method: string) =>
	isWrite(method)
		? "The service is briefly unavailable, and the outcome of this write is unknown: retrying it with the same Idempotency-Key is safe; a write sent without one may or may not have happened, so read before sending it again."
		: `The service is briefly unavailable; retry in ${retryAfterSeconds} seconds.`;
