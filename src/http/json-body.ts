import type { MiddlewareHandler } from "hono";
import { ApiError } from "../models/error";

/** The `charset` a `Content-Type` names, lower-cased and unquoted, if it names one. */
const charsetOf = (contentType: string) =>
	/;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1].toLowerCase();

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * A JSON body is UTF-8 (RFC 8259 §8.1), or it is refused: another `charset` is 415, bytes that are not UTF-8 are
 * 400 `malformed_json` (never replaced by U+FFFD and stored). The body read here is the one the route's validator
 * parses (Hono keeps it).
 */
export const utf8Json: MiddlewareHandler = async (c, next) => {
	const contentType = c.req.header("content-type");
	if (contentType && /^application\/json\b/i.test(contentType.trim())) {
		const charset = charsetOf(contentType);
		if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
			throw new ApiError(
				"unsupported_media_type",
				`The request body must be application/json in UTF-8, not ${charset}.`,
			);
		}
		try {
			utf8.decode(await c.req.arrayBuffer());
		} catch (error) {
			if (!(error instanceof TypeError)) throw error;
			throw new ApiError(
				"malformed_json",
				"The request body is not valid UTF-8.",
			);
		}
	}
	await next();
};
