import type { MiddlewareHandler } from "hono";
import { ApiError } from "../models/error";

/** The `charset` a `Content-Type` names, lower-cased and unquoted, if it names one. */
const charsetOf = (contentType: string) =>
	/;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1].toLowerCase();

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * The one rule for every JSON body, `/mcp`'s included: it is `application/json` in UTF-8 (RFC 8259 §8.1), or it
 * is refused. Another type that names JSON is 415, since the route validators would parse any `+json` type as
 * plain JSON while the API speaks no JSON dialect (merge patch, JSON:API…); so is another `charset`; bytes that
 * are not UTF-8 are 400 `malformed_json` (never replaced by U+FFFD and stored). The body read here is the one the
 * route's validator parses (Hono keeps it).
 */
export const utf8Json: MiddlewareHandler = async (c, next) => {
	const contentType = c.req.header("content-type");
	if (contentType && c.req.raw.body && /json/i.test(contentType)) {
		const charset = charsetOf(contentType);
		if (
			!/^application\/json\s*(;|$)/i.test(contentType) ||
			(charset !== undefined && charset !== "utf-8" && charset !== "utf8")
		) {
			throw new ApiError(
				"unsupported_media_type",
				"The request body must be application/json in UTF-8.",
			);
		}
		try {
			utf8.decode(await c.req.arrayBuffer());
		} catch (error) {
			if (!(error instanceof TypeError)) throw error;
			throw new ApiError("malformed_json", "The request body is not valid UTF-8.");
		}
	}
	await next();
};

/**
 * An operation that takes no body (a DELETE, a secret's rotation) refuses one, whatever its type, rather than
 * ignore it (RFC 9110 §15.5.16): a client that sends one means something the API would not do.
 */
export const noBody: MiddlewareHandler = async (c, next) => {
	if (c.req.raw.body && (await c.req.arrayBuffer()).byteLength > 0) {
		throw new ApiError("unsupported_media_type", "This operation takes no request body.");
	}
	await next();
};
