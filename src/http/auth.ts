import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../models/error";
import { log } from "./log";
import { limitFailedAuth } from "./rate-limit";

/** The token `.dev.vars.example` gives local development: never accepted anywhere else. */
const developmentToken = "petstore-dev-token";
/** Outside local development a token must be at least this long: one a client could guess is no secret. */
const minTokenLength = 32;

const encoder = new TextEncoder();
const sha256 = (text: string) => crypto.subtle.digest("SHA-256", encoder.encode(text));

/** Why a configured token is refused where the Worker runs, if it is. */
const weakness = (token: string, local: boolean) => {
	if (local) return undefined;
	if (token === developmentToken) return "it is the development token";
	if (token.length < minTokenLength) {
		return `it is shorter than ${minTokenLength} characters`;
	}
};

// The accepted tokens' digests, computed once per isolate and configuration rather than on every write.
let configured: { secret: string; local: boolean; digests: Promise<ArrayBuffer[]> } | undefined;

/**
 * The digests of the configured tokens this Worker accepts. Outside local development, the development token
 * and short tokens are refused (writes fail closed), and the log says why, once per isolate.
 */
const acceptedDigests = (env: Env) => {
	const secret = env.API_TOKEN ?? "";
	const local = env.LOCAL_DEVELOPMENT === "true";
	if (configured?.secret !== secret || configured.local !== local) {
		const tokens = secret
			.split(",")
			.map((token) => token.trim())
			.filter(Boolean);
		const accepted = tokens.filter((token, index) => {
			const why = weakness(token, local);
			if (why) {
				log("warn", {
					part: "auth",
					message: `API_TOKEN entry ${index + 1} is refused: ${why}; set a long random token with \`wrangler secret put API_TOKEN\`.`,
				});
			}
			return why === undefined;
		});
		configured = { secret, local, digests: Promise.all(accepted.map(sha256)) };
	}
	return configured.digests;
};

/** The digest of `candidate` when it is an accepted token, comparing in constant time and every one every time. */
const acceptedDigest = async (candidate: string, env: Env) => {
	const presented = await sha256(candidate);
	let matched = false;
	for (const digest of await acceptedDigests(env)) {
		matched = crypto.subtle.timingSafeEqual(presented, digest) || matched;
	}
	return matched ? presented : undefined;
};

/**
 * RFC 6750 §3.1: a request without Bearer credentials (none, or another scheme) learns the scheme only; a malformed
 * Bearer credential is an `invalid_request`, a token not accepted an `invalid_token`.
 */
const unauthorized = (error?: "invalid_request" | "invalid_token") =>
	new ApiError("unauthorized", undefined, undefined, {
		"WWW-Authenticate": `Bearer realm="petstore"${error ? `, error="${error}"` : ""}`,
	});

/**
 * Requires `Authorization: Bearer <token>` (RFC 6750) matching one of the comma-separated tokens of the `API_TOKEN`
 * secret, and names the client by its token's digest (`client`, for the write budget). A request that fails is
 * counted on its address's own budget, so that it never spends a token holder's. With no token configured, every
 * such request is refused: the API fails closed.
 */
export const requireToken: MiddlewareHandler<AppEnv> = async (c, next) => {
	const bearer = /^Bearer(?: +(.*))?$/i.exec(c.req.header("authorization") ?? "");
	// RFC 6750 §2.1: the token is a b64token.
	const presented = /^[\w.~+/-]+=*$/.exec(bearer?.[1] ?? "")?.[0];
	const digest = presented && (await acceptedDigest(presented, c.env));
	if (!digest) {
		await limitFailedAuth(c);
		throw unauthorized(bearer ? (presented ? "invalid_token" : "invalid_request") : undefined);
	}
	c.set("client", new Uint8Array(digest).toHex());
	await next();
};
