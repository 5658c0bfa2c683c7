import { OAuthAuthorizationServer, OAuthError } from "@cloudflare/workers-oauth-provider";
import { type GrantProps, grantHolderUntil } from "../http/auth";
import { log, loggable } from "../http/log";
import { failedPart } from "../http/platform";
import { type Scope, scopes } from "../models/scopes";
import { destinationRefusal } from "../webhooks/destination";
import { isLoopbackHost, urlProblem } from "../webhooks/url";

// OAuth 2.1 for hosted agents on /mcp (MCP authorization): Cloudflare's workers-oauth-provider is the authorization
// server (metadata, token, registration, client metadata documents, PKCE, refresh rotation, storage in OAUTH_KV);
// the consent page is ours (src/oauth/routes.ts), and so is the resource side (src/mcp/, src/http/auth.ts).

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

/** An access token's life, at most: an hour. */
const accessTokenSeconds = 3600;

/**
 * A grant is exchanged for tokens only while the key (or root token) that consented works, and a token outlives it
 * by no second: a revoked or expired key's grant is refused (`invalid_grant`, which also ends the grant).
 */
const whileTheHolderWorks = async ({ props, env }: { props: GrantProps; env: Env }) => {
	const now = Date.now();
	const until = await grantHolderUntil(env, props, now).catch((error) => {
		log("error", { part: failedPart(error), error: loggable(error) });
		throw new OAuthError("temporarily_unavailable", {
			description: "The credential that granted this access could not be checked; try again.",
			statusCode: 503,
			headers: { "Retry-After": "5" },
		});
	});
	if (until === undefined) {
		throw new OAuthError("invalid_grant", {
			description: "The credential that granted this access has been revoked or has expired.",
		});
	}
	const left = until === null ? accessTokenSeconds : Math.ceil((Date.parse(until) - now) / 1000);
	// The library takes no life under a minute; /mcp checks the key's expiry on every call anyway.
	return { accessTokenTTL: Math.max(60, Math.min(accessTokenSeconds, left)) };
};

/** Whether OAuth is served at `origin`: over https, or over http on a loopback host, as OAuth 2.1 allows. */
export const servesOAuth = (origin: string) => {
	const { protocol, hostname } = new URL(origin);
	return protocol === "https:" || isLoopbackHost(hostname);
};

/** The one protected resource: `/mcp` at the origin the request came to. */
export const resourceOf = (origin: string) => `${origin}/mcp`;

// The issuer and the resource are the origin a request came to (the workers.dev name, a custom domain, or
// localhost): one server per origin, each built on its first request.
const servers = new Map<string, OAuthAuthorizationServer<Env>>();

/** The authorization server of `origin`. */
export const authorizationServer = (origin: string) => {
	let server = servers.get(origin);
	if (!server) {
		server = new OAuthAuthorizationServer<Env>({
			issuer: origin,
			resources: [resourceOf(origin)],
			defaultResource: resourceOf(origin),
			authorizeEndpoint: oauthPaths.authorize,
			tokenEndpoint: oauthPaths.token,
			clientRegistrationEndpoint: oauthPaths.register,
			scopesSupported: agentScopes,
			accessTokenTTL: accessTokenSeconds,
			tokenExchangeCallback: whileTheHolderWorks,
			allowPrivateUseRedirectUris: true,
			clientIdMetadataDocumentEnabled: true,
		});
		servers.set(origin, server);
	}
	return server;
};

/** The client id a request to the authorization server names, in its query or its form body. */
const clientIdOf = async (request: Request) => {
	const query = new URL(request.url).searchParams.get("client_id");
	if (query !== null || request.method !== "POST") return query;
	const type = request.headers.get("content-type") ?? "";
	if (!type.startsWith("application/x-www-form-urlencoded")) return null;
	return new URLSearchParams(await request.clone().text()).get("client_id");
};

/**
 * Why the client id `request` names, a URL the library would fetch (a client metadata document), may not be
 * fetched, if not: webhook URLs' public-host rules, checked on the name as it resolves now.
 */
export const clientIdRefusal = async (request: Request, env: Env) => {
	const clientId = await clientIdOf(request);
	if (!clientId || !/^https?:/i.test(clientId)) return undefined;
	const problem = urlProblem(clientId, env);
	const why =
		problem === undefined ? await destinationRefusal(clientId, env, Date.now()) : `it ${problem}`;
	return why && `The client id may not be fetched: ${why}.`;
};

/**
 * The authorization server's answer to `request`, a request to one of its endpoints; a client id URL that names a
 * host that is not public is refused before the library fetches it (`invalid_client`).
 */
export const serveOAuth = async (request: Request, env: Env, ctx: ExecutionContext) => {
	const refusal = await clientIdRefusal(request, env);
	if (refusal !== undefined) {
		const body = { error: "invalid_client", error_description: refusal };
		return Response.json(body, { status: 400, headers: { "cache-control": "no-store" } });
	}
	return authorizationServer(new URL(request.url).origin).fetch(request, env, ctx);
};
