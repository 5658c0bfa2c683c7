import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../models/error";

const encoder = new TextEncoder();
const sha256 = (text: string) =>
	crypto.subtle.digest("SHA-256", encoder.encode(text));

// The configured tokens' digests, computed once per isolate and secret value rather than on every write.
let configured: { secret: string; digests: Promise<ArrayBuffer[]> } | undefined;
const configuredDigests = (secret: string) => {
	if (configured?.secret !== secret) {
		const tokens = secret
			.split(",")
			.map((token) => token.trim())
			.filter(Boolean);
		configured = { secret, digests: Promise.all(tokens.map(sha256)) };
	}
	return configured.digests;
};

/** True when `candidate` equals a configured token, comparing digests in constant time and every one every time. */
const isConfigured = async (candidate: string, secret: string) => {
	const presented = await sha256(candidate);
	let matched = false;
	for (const digest of await configuredDigests(secret)) {
		matched = crypto.subtle.timingSafeEqual(presented, digest) || matched;
	}
	return matched;
};

/**
 * Requires `Authorization: Bearer <token>` (RFC 6750) matching one of the comma-separated tokens of the
 * `API_TOKEN` secret. With no token configured, every write is refused: the API fails closed.
 */
export const requireToken: MiddlewareHandler<AppEnv> = async (c, next) => {
	const presented = /^Bearer ([\w.~+/=-]+)$/i.exec(
		c.req.header("authorization") ?? "",
	)?.[1];
	if (!presented || !(await isConfigured(presented, c.env.API_TOKEN ?? ""))) {
		throw new ApiError("unauthorized", undefined, undefined, {
			"WWW-Authenticate": 'Bearer realm="petstore"',
		});
	}
	await next();
};
