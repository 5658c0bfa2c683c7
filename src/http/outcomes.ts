import type { Unchanged } from "../db/conditional";
import { ApiError } from "./errors";

/** The row a single-row read found; `missing()` is thrown when there is none. */
export const found = async <T>(
	read: PromiseLike<T | undefined>,
	missing: () => ApiError,
): Promise<T> => {
	const row = await read;
	if (row === undefined) throw missing();
	return row;
};

/**
 * The error that says why a conditional write changed nothing: `missing` for a missing row, 412 for an ETag that
 * moved on since `If-Match`, else the write's own `conflict`.
 */
export const refusal = (
	why: Unchanged,
	missing: ApiError,
	conflict?: ApiError,
): ApiError => {
	if (why === "missing") return missing;
	return (why === "refused" && conflict) || new ApiError("precondition_failed");
};
