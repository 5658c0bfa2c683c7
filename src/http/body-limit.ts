import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../models/error";
import { limits } from "../models/limits";

/** Answers 413 once a body passes the limit, counting streamed bytes rather than buffering them all. */
export const limitBody = bodyLimit({
	maxSize: limits.requestBodyBytes,
	onError: () => {
		throw new ApiError("payload_too_large");
	},
});
