import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "./errors";

const encoder = new TextEncoder();
const sha256 = async (text: string) =>
	crypto.subtle.digest("SHA-256", encoder.encode(text));

/** True when `candidate` equals any token, comparing hashes in constant time and every token every time. */
const matchesAny = async (candidate: string, tokens: string[]) => {
	const presented = await sha256(candidate);
	let matched = false;
	for (const token of tokens) {
		matched =
			crypto.subtle.timingSafeEqual(presented, await sha256(token)) || matched;
	}
	return matched;
};

/**
 * Requires `Authorization: Bearer <token>` (RFC 6750) matching one of the comma-separated tokens of the
 * `API_TOKEN` secret. With no token configured, every write is refused: the API fails closed.
 */
export const requireToken: MiddlewareHandler<AppEnv> = async (c, next) => {
	const tokens = (c.env.API_TOKEN ?? "")
		.split(",")
		.map((token) => token.trim())
		.filter(Boolean);
	const presented = /^Bearer ([\w.~+/=-]+)$/i.exec(
		c.req.header("authorization") ?? "",
	)?.[1];
	if (!presented || !(await matchesAny(presented, tokens))) {
		throw new ApiError(
			"unauthorized",
			"Writes need a valid `Authorization: Bearer <token>` header.",
			undefined,
			{ "WWW-Authenticate": 'Bearer realm="petstore"' },
		);
	}
	await next();
};
