import { drizzle } from "drizzle-orm/d1";
import type { Context, MiddlewareHandler } from "hono";
import { type KeyRecord, keyByHash, recordKeyUse } from "../db/api-keys";
import type { AppEnv } from "../env";
import { ApiError } from "../models/error";
import { isKeySecret, keyHash } from "../models/key-secret";
import { type Client, type Scope, scopes } from "../models/scopes";
import { log } from "./log";
import { limitFailedAuth } from "./rate-limit";

/** The token `.dev.vars.example` gives local development: never accepted anywhere else. */
const developmentToken = "petstore-dev-token";
/** Outside local development: a token a client could guess is no secret. */
const minTokenLength = 32;

const sha256 = (text: string) => crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));

/** Why a configured token is refused where the Worker runs, if it is. */
const weakness = (token: string, local: boolean) => {
	if (local) return undefined;
	if (token === developmentToken) return "it is the development token";
	if (token.length < minTokenLength) return `it is shorter than ${minTokenLength} characters`;
};

// Computed once per isolate and configuration rather than on every write.
let configured: { secret: string; local: boolean; digests: Promise<ArrayBuffer[]> } | undefined;

/** The digests of the configured tokens not refused as weak (logged, once per isolate): writes fail closed. */
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

/** The digest of `candidate` if it is an accepted token, compared in constant time with every one. */
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
 * Bearer credential is an `invalid_request`, a credential not accepted an `invalid_token`.
 */
const unauthorized = (error?: "invalid_request" | "invalid_token") =>
	new ApiError("unauthorized", undefined, undefined, {
		"WWW-Authenticate": `Bearer realm="petstore"${error ? `, error="${error}"` : ""}`,
	});

/** How long an isolate trusts a key it read: a revocation or expiry takes effect everywhere within this. */
const keyTrustMs = 10_000;
/** A key's `lastUsedAt` is written at most this often. */
const keyUseMs = 60_000;
/** Keys an isolate remembers: a bound, so that random well-formed keys cannot grow it. */
const keysRemembered = 1000;

/** Keys this isolate read, by their secret's digest (none: no such key), and when it last recorded their use. */
const known = new Map<string, { key?: KeyRecord; readAt: number; usedAt: number }>();

/** Forgets what this isolate knows of key `id`: its change applies here at once. */
export const forgetKey = (id: number) => {
	for (const [hash, { key }] of known) if (key?.id === id) known.delete(hash);
};

/**
 * The key whose secret is `secret`, read from D1 at most once per {@link keyTrustMs}, if it works at `now`: not
 * expired, and a rolled key's previous secret only within its window. Its use is recorded after the response.
 */
const keyFor = async (c: Context<AppEnv>, secret: string, now: number) => {
	const hash = await keyHash(secret);
	let entry = known.get(hash);
	if (!entry || entry.readAt <= now - keyTrustMs) {
		const key = await keyByHash(drizzle(c.env.DB), hash);
		if (known.size >= keysRemembered) known.delete(known.keys().next().value as string);
		entry = { key, readAt: now, usedAt: entry?.key === undefined ? 0 : entry.usedAt };
		known.set(hash, entry);
	}
	const { key } = entry;
	const works =
		key !== undefined &&
		(key.hash === hash || (key.previousUntil ?? 0) > now) &&
		(key.expiresAt === null || Date.parse(key.expiresAt) > now);
	if (!works) return undefined;
	if (entry.usedAt <= now - keyUseMs) {
		entry.usedAt = now;
		c.executionCtx.waitUntil(
			recordKeyUse(drizzle(c.env.DB), key.id, now, keyUseMs).catch((error) =>
				log("warn", {
					part: "d1",
					requestId: c.var.requestId,
					keyId: key.id,
					error: String(error),
				}),
			),
		);
	}
	return key;
};

/** The client `credential` authenticates: the root token, holding every scope, or a key that works. */
const clientOf = async (c: Context<AppEnv>, credential: string): Promise<Client | undefined> => {
	const root = await acceptedDigest(credential, c.env);
	if (root) {
		return {
			scopes,
			budget: `root:${new Uint8Array(root).toHex()}`,
			idempotency: "root",
			expiresAt: null,
		};
	}
	// A key with a wrong checksum is refused here, before any database read.
	if (!isKeySecret(credential)) return undefined;
	const key = await keyFor(c, credential, c.var.now());
	return (
		key && {
			key: key.id,
			scopes: key.scopes,
			budget: `key:${key.id}`,
			idempotency: String(key.id),
			expiresAt: key.expiresAt,
		}
	);
};

/**
 * Requires `Authorization: Bearer <credential>` (RFC 6750): an API key, or a root token of the `API_TOKEN` secret.
 * A request that fails is counted on its address's budget, never a client's.
 */
export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
	const bearer = /^Bearer(?: +(.*))?$/i.exec(c.req.header("authorization") ?? "");
	// RFC 6750 §2.1: the credential is a b64token.
	const presented = /^[\w.~+/-]+=*$/.exec(bearer?.[1] ?? "")?.[0];
	const client = presented && (await clientOf(c, presented));
	if (!client) {
		await limitFailedAuth(c);
		throw unauthorized(bearer ? (presented ? "invalid_token" : "invalid_request") : undefined);
	}
	c.set("client", client);
	await next();
};

/** The client a route with a scope authenticated (a route without one has none). */
export const authenticated = (c: Context<AppEnv>) => {
	if (!c.var.client) throw new Error("A route that needs its client declares no scope.");
	return c.var.client;
};

/** Refuses an authenticated client without `scope`: 403, naming it (RFC 6750 §3.1 `insufficient_scope`). */
export const requireScope =
	(scope: Scope): MiddlewareHandler<AppEnv> =>
	async (c, next) => {
		if (!c.var.client?.scopes.includes(scope)) throw insufficientScope(scope);
		await next();
	};

/** The 403 of a credential that lacks `scope`. */
export const insufficientScope = (scope: Scope) =>
	new ApiError("forbidden", `This credential lacks the scope ${scope}.`, undefined, {
		"WWW-Authenticate": `Bearer realm="petstore", error="insufficient_scope", scope="${scope}"`,
	});
