import { bodyLimit } from "hono/body-limit";
import { ApiError } from "./errors";

/** Request bodies are JSON documents of a few fields: 16 KiB is generous. */
const maxBodyBytes = 16 * 1024;

/** Answers 413 once a body passes the limit, counting streamed bytes rather than buffering them all. */
export const limitBody = bodyLimit({
	maxSize: maxBodyBytes,
	onError: () => {
		throw new ApiError(
			"payload_too_large",
			`Request bodies are limited to ${maxBodyBytes} bytes.`,
		);
	},
});
