import {
	AuthorizationError,
	type AuthRequest,
	authorizationErrorRedirect,
	type OAuthHelpers,
} from "@cloudflare/workers-oauth-provider";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { html } from "hono/html";
import type { AppEnv } from "../env";
import { credentialClient, grantPropsOf } from "../http/auth";
import { limitFailedAuth } from "../http/rate-limit";
import { ApiError } from "../models/error";
import { type Scope, scopeDescriptions } from "../models/scopes";
import { name } from "../models/text";
import {
	agentScopes,
	authorizationServer,
	clientIdRefusal,
	oauthPaths,
	resourceOf,
	serveOAuth,
	servesOAuth,
} from "./server";

/** A page of this API: no script, nothing from elsewhere, never framed; its form may also send to `sendsTo`. */
const page = (
	c: Context<AppEnv>,
	status: 200 | 400 | 401 | 403,
	title: string,
	body: ReturnType<typeof html>,
	sendsTo?: string,
) => {
	const target = sendsTo && new URL(sendsTo);
	// A private-use scheme (`cursor://…`) has no origin to name: its scheme is the source.
	const source = target && (/^https?:$/.test(target.protocol) ? target.origin : target.protocol);
	const formAction = source ? `'self' ${source}` : "'self'";
	c.header(
		"Content-Security-Policy",
		`default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
	);
	c.header("Referrer-Policy", "no-referrer");
	return c.html(
		html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Petstore API</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}code{font-size:.95em}input{width:100%;padding:.5rem;font:inherit}button,a.button{margin:.5rem .5rem 0 0;padding:.5rem 1rem;font:inherit}.error{color:#a00}</style>
</head>
<body><h1>${title}</h1>${body}</body>
</html>`,
		status,
	);
};

/** The library's OAuth API, as the authorization server of the origin the request came to. */
const oauthApi = (c: Context<AppEnv>) =>
	authorizationServer(new URL(c.req.url).origin).getOAuthApi(c.env);

/** The request the page was opened with, validated by the library after our client id check; else its refusal. */
const authRequestOf = async (c: Context<AppEnv>, query: string) => {
	const request = new Request(`${new URL(c.req.url).origin}${oauthPaths.authorize}?${query}`);
	const refusal = await clientIdRefusal(new URLSearchParams(query).get("client_id"), c.env);
	if (refusal) return refused(c, new Error(refusal));
	return oauthApi(c)
		.parseAuthRequest(request)
		.catch((error) => refused(c, error));
};

/** The scopes an agent's request asks for: those it names, or, naming none, every scope an agent may hold. */
const askedScopes = (request: AuthRequest) => (request.scope.length ? request.scope : agentScopes);

/** The scopes of the grants of `userId` a consent to `request` replaces, as `completeAuthorization` decides. */
const scopesReplaced = async (api: OAuthHelpers, userId: string, request: AuthRequest) => {
	const held: string[] = [];
	let cursor: string | undefined;
	do {
		const page = await api.listUserGrants(userId, { cursor });
		for (const grant of page.items) {
			const replaced =
				grant.clientId === request.clientId &&
				grant.resource === request.resource &&
				// A client id URL is one for every installation of the client: the redirect URI tells them apart.
				(!/^https:/i.test(request.clientId) || grant.redirectUri === request.redirectUri);
			if (replaced) held.push(...grant.scope);
		}
		cursor = page.cursor;
	} while (cursor);
	return held;
};

/** An agent's consent page, whose form asks for a credential; `error` says why the last one was not enough. */
const consent = async (
	c: Context<AppEnv>,
	status: 200 | 401 | 403,
	request: AuthRequest,
	query: string,
	error?: string,
) => {
	const client = await oauthApi(c).lookupClient(request.clientId);
	// A name the API would refuse for a key (a bidirectional override, hidden text) is not shown: its id is.
	const shown = name(200).safeParse(client?.clientName).data ?? request.clientId;
	// Where it is sent back, as the person reads it: its host, or the scheme of an app.
	const back = new URL(request.redirectUri);
	const body = html`<p><strong>${shown}</strong> asks to act on this API as you, and will be sent back to
<strong>${back.host || `${back.protocol}//`}</strong>.</p>
<p>It asks for:</p><ul>${askedScopes(request).map(
		(scope) =>
			html`<li><code>${scope}</code>: ${scopeDescriptions[scope as Scope] ?? "unknown"}</li>`,
	)}</ul>
<form method="post" action="${oauthPaths.authorize}">
<input type="hidden" name="request" value="${query}">
<label for="credential">An API key (<code>pst_…</code>) or the root token. It grants the scopes asked that it holds, no more.</label>
<input id="credential" name="credential" type="password" autocomplete="off">
${error ? html`<p class="error">${error}</p>` : ""}
<button name="decision" value="allow">Allow</button><button name="decision" value="deny">Deny</button>
</form>`;
	// Allow and Deny answer with a redirect back to the client, which the form's CSP must allow.
	return page(c, status, "Sign in an agent", body, request.redirectUri);
};

/** The answer to a request that is not a valid authorization request: back to the client if that is safe. */
const refused = (c: Context<AppEnv>, error: unknown) => {
	if (error instanceof AuthorizationError && error.redirectTo) return c.redirect(error.redirectTo);
	const message = error instanceof Error ? error.message : String(error);
	return page(c, 400, "Not a sign-in request", html`<p>${message}</p>`);
};

/** The library's answer, through the app's middleware: with the request id and headers every answer carries. */
const library = async (c: Context<AppEnv>) => {
	// The app's JSON check may have read the body: Hono keeps what it read for a second reader.
	const { raw } = c.req;
	const request = raw.body ? new Request(raw, { body: await c.req.arrayBuffer() }) : raw;
	// Hono types the Worker's execution context with fewer members than the runtime gives it.
	const answer = await serveOAuth(request, c.env, c.executionCtx as ExecutionContext);
	return c.newResponse(answer.body, answer);
};

/** Refuses a request to an origin where OAuth is not served. */
const served: MiddlewareHandler<AppEnv> = async (c, next) => {
	if (!servesOAuth(new URL(c.req.url).origin)) {
		throw new ApiError("not_found", "Agents sign in over https, or over http on a loopback host.");
	}
	await next();
};

export const oauthRoutes = new Hono<AppEnv>()
	.use(oauthPaths.authorize, served)
	.use(`${oauthPaths.resourceMetadata}/*`, served)
	// Every method: the library answers those it does not take.
	.on("ALL", [oauthPaths.token, oauthPaths.register, oauthPaths.serverMetadata], served, library)
	// RFC 9728 metadata of `/mcp`, at the path derived from it and at the root, where 2025 clients look.
	.on("GET", [`${oauthPaths.resourceMetadata}/mcp`, oauthPaths.resourceMetadata], (c) => {
		const { origin } = new URL(c.req.url);
		return c.json({
			resource: resourceOf(origin),
			authorization_servers: [origin],
			scopes_supported: agentScopes,
			bearer_methods_supported: ["header"],
			resource_name: "Petstore API",
		});
	})
	.get(oauthPaths.authorize, async (c) => {
		const query = new URL(c.req.url).search.slice(1);
		const request = await authRequestOf(c, query);
		return request instanceof Response ? request : consent(c, 200, request, query);
	})
	.post(oauthPaths.authorize, async (c) => {
		// The form the page sends; any other body is no sign-in request.
		const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
		const query = typeof form.request === "string" ? form.request : "";
		const request = await authRequestOf(c, query);
		if (request instanceof Response) return request;
		if (form.decision !== "allow") {
			return c.redirect(authorizationErrorRedirect(request, "access_denied"), 303);
		}
		const credential = typeof form.credential === "string" ? form.credential.trim() : "";
		const client = credential ? await credentialClient(c, credential) : undefined;
		if (!client) {
			await limitFailedAuth(c);
			return consent(c, 401, request, query, "That is neither an API key nor the root token.");
		}
		const holds = (scope: string) =>
			agentScopes.includes(scope as Scope) && client.scopes.includes(scope as Scope);
		const asked = askedScopes(request).filter(holds);
		if (asked.length === 0) {
			return consent(c, 403, request, query, "That credential holds none of the scopes asked.");
		}
		const api = oauthApi(c);
		// A grant's user is the credential that consented: a key's grants are its own.
		const userId = client.key === undefined ? "root" : `key-${client.key}`;
		// A step-up widens, never narrows: the grant keeps what the one it replaces held, while the credential holds it.
		const before = await scopesReplaced(api, userId, request);
		const { redirectTo } = await api.completeAuthorization({
			request,
			userId,
			metadata: {},
			scope: [...new Set([...asked, ...before.filter(holds)])],
			props: grantPropsOf(client),
		});
		return c.redirect(redirectTo, 303);
	});
