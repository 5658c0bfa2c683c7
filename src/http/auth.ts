import { drizzle } from "drizzle-orm/d1";
import type { Context, MiddlewareHandler } from "hono";
import { type KeyRecord, keyByHash, keyById, recordKeyUse } from "../db/api-keys";
import type { Db } from "../db/client";
import type { AppEnv } from "../env";
import { hexOf, sha256 } from "../models/digest";
import { ApiError } from "../models/error";
import { isKeySecret } from "../models/key-secret";
import { type Client, insufficientScope, type Scope, scopes } from "../models/scopes";
import { log } from "./log";
import { limitFailedAuth } from "./rate-limit";

/** The token `.dev.vars.example` gives local development: never accepted anywhere else. */
const developmentToken = "petstore-dev-token";
/** Outside local development: a token a client could guess is no secret. */
const minTokenLength = 32;

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

/** The `Authorization: Bearer` credential (RFC 6750 §2.1, or an agent's token, which holds `:`), if any. */
export const bearerOf = (c: Context<AppEnv>) => {
	const bearer = /^Bearer(?: +(.*))?$/i.exec(c.req.header("authorization") ?? "");
	return bearer ? (/^[\w.~+/:-]+=*$/.exec(bearer[1] ?? "")?.[0] ?? "") : undefined;
};

/** How long an isolate trusts a key it read: a revocation or expiry takes effect everywhere within this. */
const keyTrustMs = 10_000;
/** A key's `lastUsedAt` is written at most this often. */
const keyUseMs = 60_000;
/** Keys an isolate remembers: a bound, so that random well-formed keys cannot grow it. */
const keysRemembered = 1000;

/** Keys this isolate read, by their secret's digest or (for a grant) `id:` and their id, and when it last recorded their use. */
const known = new Map<string, { key: KeyRecord; readAt: number; usedAt: number }>();

/** Forgets what this isolate knows of key `id`: its change applies here at once. */
export const forgetKey = (id: number) => {
	for (const [name, { key }] of known) if (key.id === id) known.delete(name);
};

const worksAt = (key: KeyRecord, now: number) =>
	key.expiresAt === null || Date.parse(key.expiresAt) > now;

/** The key `read` finds if it works at `now`, cached by `name`; a missing one is not, so fakes evict none. */
const trustedKey = async (
	c: Context<AppEnv>,
	name: string,
	read: (db: Db) => Promise<KeyRecord | undefined>,
	now: number,
) => {
	let entry = known.get(name);
	if (!entry || entry.readAt <= now - keyTrustMs) {
		const key = await read(drizzle(c.env.DB));
		if (!key) {
			known.delete(name);
			return undefined;
		}
		if (!known.has(name) && known.size >= keysRemembered) {
			known.delete(known.keys().next().value as string);
		}
		entry = { key, readAt: now, usedAt: entry?.usedAt ?? 0 };
		known.set(name, entry);
	}
	const { key } = entry;
	if (!worksAt(key, now)) return undefined;
	if (entry.usedAt <= now - keyUseMs) {
		entry.usedAt = now;
		const recorded = recordKeyUse(drizzle(c.env.DB), key.id, now, keyUseMs);
		const fields = { part: "d1", requestId: c.var.requestId, keyId: key.id };
		c.executionCtx.waitUntil(
			recorded.catch((error) => log("warn", { ...fields, error: String(error) })),
		);
	}
	return key;
};

/** Key `key` as a client, with the scopes it holds of `held` (all, unless a grant narrows them). */
const keyClient = (key: KeyRecord, held: readonly string[] = scopes): Client => ({
	key: key.id,
	scopes: key.scopes.filter((scope) => held.includes(scope)),
	budget: `key:${key.id}`,
	expiresAt: key.expiresAt,
});

/** A root token as a client, with the scopes of `held`; its budget names enough of its digest to tell tokens apart. */
const rootClient = (digest: ArrayBuffer, held: readonly string[] = scopes): Client => ({
	scopes: scopes.filter((scope) => held.includes(scope)),
	budget: `root:${hexOf(digest).slice(0, 16)}`,
	expiresAt: null,
});

/** The client `credential` authenticates: the root token, holding every scope, or a key that works. */
export const credentialClient = async (c: Context<AppEnv>, credential: string) => {
	const digest = await sha256(credential);
	// Compared in constant time with every accepted token's digest.
	const matches = (await acceptedDigests(c.env)).map((accepted) =>
		crypto.subtle.timingSafeEqual(digest, accepted),
	);
	if (matches.includes(true)) return rootClient(digest);
	// A key with a wrong checksum is refused here, before any database read.
	if (!isKeySecret(credential)) return undefined;
	const hash = hexOf(digest);
	const now = c.var.now();
	const key = await trustedKey(c, hash, (db) => keyByHash(db, hash), now);
	// A rolled key's previous secret works only within its window.
	return key && (key.hash === hash || (key.previousUntil ?? 0) > now) ? keyClient(key) : undefined;
};

/** Who consented to an agent's grant: a key, or the root token (by its budget, which names its digest). */
export type GrantProps = { key?: number; root?: string };

/** What an agent's grant keeps of the client that consented. */
export const grantPropsOf = (client: Client): GrantProps =>
	client.key === undefined ? { root: client.budget } : { key: client.key };

/** The root client whose budget is `budget`, with the scopes of `held`, while its token is configured. */
const configuredRoot = async (env: Env, budget: string | undefined, held?: readonly string[]) =>
	(await acceptedDigests(env))
		.map((digest) => rootClient(digest, held))
		.find((root) => root.budget === budget);

/** The client an agent's grant acts as, narrowed to `granted`: its key while that works, or a configured root. */
export const grantClient = async (c: Context<AppEnv>, props: GrantProps, granted: string[]) => {
	if (props.key === undefined) return configuredRoot(c.env, props.root, granted);
	const id = props.key;
	const key = await trustedKey(c, `id:${id}`, (db) => keyById(db, id), c.var.now());
	return key && keyClient(key, granted);
};

/** Until when a grant's consenting credential works, read afresh on refresh: null for ever, undefined if gone. */
export const grantHolderUntil = async (env: Env, props: GrantProps, now: number) => {
	if (props.key === undefined) return (await configuredRoot(env, props.root)) ? null : undefined;
	const key = await keyById(drizzle(env.DB), props.key);
	return key && worksAt(key, now) ? key.expiresAt : undefined;
};

/** Requires a Bearer API key or `API_TOKEN` root token; a failure is counted on its address's budget. */
export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
	const presented = bearerOf(c);
	// A tool call of /mcp acts as the client its MCP request authenticated (src/mcp/index.ts).
	const client = c.env.ACTING_CLIENT ?? (presented && (await credentialClient(c, presented)));
	if (!client) {
		await limitFailedAuth(c);
		// RFC 6750 §3.1: without Bearer credentials a client learns the scheme only.
		const error =
			presented === undefined ? "" : `, error="${presented ? "invalid_token" : "invalid_request"}"`;
		throw new ApiError("unauthorized", undefined, undefined, {
			"WWW-Authenticate": `Bearer realm="petstore"${error}`,
		});
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
