import {
	type ClientRegistrationCallbackOptions,
	OAuthAuthorizationServer,
	OAuthError,
	type TokenExchangeCallbackOptions,
} from "@cloudflare/workers-oauth-provider";
import { drizzle } from "drizzle-orm/d1";
import { keyById } from "../db/api-keys";
import { type GrantProps, grantHolderUntil } from "../http/auth";
import { log, loggable } from "../http/log";
import { failedPart } from "../http/platform";
import { destinationRefusal, isLoopbackHost, urlProblem } from "../http/public-hosts";
import { type Scope, scopes } from "../models/scopes";
import { name } from "../models/text";

// OAuth 2.1 for hosted agents on /mcp: Cloudflare's workers-oauth-provider is the authorization server (storage in
// OAUTH_KV); the consent page (src/oauth/routes.ts) and the resource side (src/mcp/, src/http/auth.ts) are ours.

/** The OAuth endpoints the library serves, and the consent page, which is ours. */
export const oauthPaths = {
	authorize: "/authorize",
	token: "/token",
	register: "/register",
	serverMetadata: "/.well-known/oauth-authorization-server",
	resourceMetadata: "/.well-known/oauth-protected-resource",
};

/** What an agent may be granted: every scope but `keys:manage`, since key operations are no tools. */
export const agentScopes = scopes.filter((scope) => scope !== "keys:manage") as Scope[];

const accessTokenSeconds = 3600;

/** The Worker's bindings as the library's callbacks see them, with the scope a token request asked, if it named one. */
type OAuthEnv = Env & { ASKED_SCOPE?: string[] };

/** An OAuth error answer (RFC 6749 §5.2), which no cache keeps. */
const oauthError = (error: string, description: string, status = 400, headers = {}) =>
	Response.json(
		{ error, error_description: description },
		{ status, headers: { "cache-control": "no-store", ...headers } },
	);

/** The credential that consented, read afresh: until when it works, and the scopes it holds now; undefined once gone. */
const holderAt = async (env: Env, props: GrantProps, now: number) => {
	const until = await grantHolderUntil(env, props, now);
	if (until === undefined) return undefined;
	const held: readonly string[] =
		props.key === undefined ? scopes : ((await keyById(drizzle(env.DB), props.key))?.scopes ?? []);
	return { until, held };
};

/**
 * Tokens only while the key (or root token) that consented works, outliving it by no second, with only the scopes
 * of the grant it holds now; else `invalid_grant`, which also ends the grant (the agent signs in again).
 */
const whileTheHolderWorks = async (options: TokenExchangeCallbackOptions<OAuthEnv>) => {
	const { props, scope, requestedScope, env } = options;
	// RFC 6749 §6: a token request may ask for less than its grant holds, never for more (`invalid_scope`, which
	// leaves the grant as it was), where the library would narrow it silently.
	const beyond = (env.ASKED_SCOPE ?? []).filter((asked) => !scope.includes(asked));
	if (beyond.length > 0) {
		throw new OAuthError("invalid_scope", {
			description: `The grant holds no ${beyond.join(", ")}: a token cannot widen it; sign in again for more.`,
		});
	}
	const now = Date.now();
	const holder = await holderAt(env, props, now).catch((error) => {
		log("error", { part: failedPart(error), error: loggable(error) });
		throw new OAuthError("temporarily_unavailable", {
			description: "The credential that granted this access could not be checked; try again.",
			statusCode: 503,
			headers: { "Retry-After": "5" },
		});
	});
	const accessTokenScope = requestedScope.filter((scope) => holder?.held.includes(scope));
	if (holder === undefined || accessTokenScope.length === 0) {
		const why = holder ? "holds none of its scopes now" : "has been revoked or has expired";
		const description = `The credential that granted this access ${why}.`;
		throw new OAuthError("invalid_grant", { description });
	}
	const left =
		holder.until === null ? accessTokenSeconds : Math.ceil((Date.parse(holder.until) - now) / 1000);
	// The library takes no life under a minute; /mcp checks the key's expiry on every call anyway.
	return { accessTokenTTL: Math.max(60, Math.min(accessTokenSeconds, left)), accessTokenScope };
};

/** How far a registration may go: POST /register is unauthenticated, and each client stays in OAUTH_KV. */
const registrationBounds = {
	redirectUris: 10,
	redirectUriLength: 2048,
	clientNameLength: 100,
	bodyBytes: 8 * 1024,
};

/** Why a registration goes beyond {@link registrationBounds}, if it does: an RFC 7591 §3.2.2 error. */
const beyondBounds = async ({ clientMetadata, request }: ClientRegistrationCallbackOptions) => {
	const { redirect_uris: uris, client_name: clientName } = clientMetadata;
	const { redirectUris, redirectUriLength, clientNameLength, bodyBytes } = registrationBounds;
	if ((await request.arrayBuffer()).byteLength > bodyBytes) {
		return { code: "invalid_client_metadata", description: `At most ${bodyBytes} bytes in all.` };
	}
	if (Array.isArray(uris) && uris.length > redirectUris) {
		return { code: "invalid_redirect_uri", description: `At most ${redirectUris} redirect URIs.` };
	}
	if (Array.isArray(uris) && uris.some((uri) => String(uri).length > redirectUriLength)) {
		const description = `A redirect URI has at most ${redirectUriLength} characters.`;
		return { code: "invalid_redirect_uri", description };
	}
	// A name as the API takes one everywhere (src/models/text.ts): the consent page shows it to the person who signs in.
	const named = name(clientNameLength).optional().safeParse(clientName).error;
	if (named) {
		const description = `The client name ${named.issues[0].message} (at most ${clientNameLength} characters).`;
		return { code: "invalid_client_metadata", description };
	}
};

/** Whether OAuth is served at `origin`: over https, or over http on a loopback host, as OAuth 2.1 allows. */
export const servesOAuth = (origin: string) => {
	const { protocol, hostname } = new URL(origin);
	return protocol === "https:" || isLoopbackHost(hostname);
};

/** The one protected resource: `/mcp` at the origin the request came to. */
export const resourceOf = (origin: string) => `${origin}/mcp`;

/** One authorization server per origin a request came to (workers.dev, a custom domain, localhost), its issuer. */
const servers = new Map<string, OAuthAuthorizationServer<OAuthEnv>>();

export const authorizationServer = (origin: string) => {
	const server =
		servers.get(origin) ??
		new OAuthAuthorizationServer<OAuthEnv>({
			issuer: origin,
			resources: [resourceOf(origin)],
			defaultResource: resourceOf(origin),
			authorizeEndpoint: oauthPaths.authorize,
			tokenEndpoint: oauthPaths.token,
			clientRegistrationEndpoint: oauthPaths.register,
			scopesSupported: agentScopes,
			accessTokenTTL: accessTokenSeconds,
			tokenExchangeCallback: whileTheHolderWorks,
			clientRegistrationCallback: beyondBounds,
			allowPrivateUseRedirectUris: true,
			clientIdMetadataDocumentEnabled: true,
		});
	servers.set(origin, server);
	return server;
};

/** Why the library may not fetch `clientId`, a client metadata document's URL: public-host rules, as it resolves now. */
export const clientIdRefusal = async (clientId: string | null | undefined, env: Env) => {
	if (!clientId || !/^https?:/i.test(clientId)) return undefined;
	const problem = urlProblem(clientId, env);
	const why =
		problem === undefined ? await destinationRefusal(clientId, env, Date.now()) : `it ${problem}`;
	return why && `The client id may not be fetched: ${why}.`;
};

/** The authorization server's answer to `request`, a request to one of the endpoints the library serves. */
export const serveOAuth = async (request: Request, env: Env, ctx: ExecutionContext) => {
	const url = new URL(request.url);
	// Registrations are counted per address on a budget of their own (wrangler.toml), so that one address cannot fill
	// OAUTH_KV with clients (RFC 7591 §3: a server may limit them). A limiter that fails lets them through (logged).
	if (request.method === "POST" && url.pathname === oauthPaths.register) {
		const key = request.headers.get("cf-connecting-ip") ?? "unknown";
		const { success } = await env.REGISTER_LIMITER.limit({ key }).catch((error) => {
			log("warn", { part: "rate-limiter", error: String(error) });
			return { success: true };
		});
		if (!success) {
			const description = "Too many client registrations from this address; try again in a minute.";
			return oauthError("temporarily_unavailable", description, 429, { "Retry-After": "60" });
		}
	}
	const type = request.headers.get("content-type") ?? "";
	const form =
		request.method === "POST" && type.startsWith("application/x-www-form-urlencoded")
			? new URLSearchParams(await request.clone().text())
			: undefined;
	const clientId = url.searchParams.get("client_id") ?? form?.get("client_id");
	const refusal = await clientIdRefusal(clientId, env);
	if (refusal !== undefined) return oauthError("invalid_client", refusal);
	// The library tells its token callback the scope a request asked only as it narrowed it: this tells it as asked.
	const asked = form?.get("scope")?.split(" ").filter(Boolean);
	return authorizationServer(url.origin).fetch(request, { ...env, ASKED_SCOPE: asked }, ctx);
};
