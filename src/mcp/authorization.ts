import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../env";
import { bearerOf, credentialClient, type GrantProps, grantClient } from "../http/auth";
import { limitFailedAuth } from "../http/rate-limit";
import { ApiError } from "../models/error";
import { insufficientScope } from "../models/scopes";
import { authorizationServer, oauthPaths, resourceOf, servesOAuth } from "../oauth/server";
import type { ApiTool } from "./tools";

/** A JSON-RPC error: the one shape of answer an MCP client reads, whatever went wrong. */
export const rpcError = (
	c: Context,
	status: number,
	error: { code: number; message: string; data?: unknown },
	id: unknown = null,
) => c.json({ jsonrpc: "2.0", id, error }, status as ContentfulStatusCode);

/** Whether a credential is an agent's OAuth token, `user:grant:secret`: no key or root token holds a `:`. */
const isOAuthToken = (credential: string) => credential.includes(":");

/** The client a `/mcp` credential authenticates: a key, the root token, or an agent's token issued for `/mcp`. */
const clientOf = async (c: Context<AppEnv>, credential: string) => {
	if (!isOAuthToken(credential)) return credentialClient(c, credential);
	const origin = new URL(c.req.url).origin;
	if (!servesOAuth(origin)) return undefined;
	const token = await authorizationServer(origin).validateToken<GrantProps>(
		resourceOf(origin),
		credential,
		c.env,
	);
	return token ? grantClient(c, token.props, token.scope) : undefined;
};

/** An HTTP refusal an OAuth client acts on (RFC 6750 §3, RFC 9728 §5.1), as the JSON-RPC error it also reads. */
const challenge = (
	c: Context<AppEnv>,
	error: ApiError,
	fields: { error?: string; scope?: string },
	id: unknown,
) => {
	const metadata = `${new URL(c.req.url).origin}${oauthPaths.resourceMetadata}/mcp`;
	const parameters = Object.entries({ ...fields, resource_metadata: metadata })
		.filter(([, value]) => value !== undefined)
		.map(([name, value]) => `${name}="${value}"`);
	c.header("WWW-Authenticate", `Bearer ${parameters.join(", ")}`);
	const data = { code: error.code, message: error.message, status: error.status };
	return rpcError(c, error.status, { code: -32000, message: error.message, data }, id);
};

/**
 * Who a `/mcp` request acts as, if it may call the tool it names; else an HTTP refusal, where an OAuth client looks:
 * 401 saying where to sign in and what scope to ask, or 403 `insufficient_scope` to an OAuth token (it can step up).
 * A key or the root token lacking the scope gets the operation's own `forbidden`, a tool error: it cannot step up.
 */
export const authorize = async (c: Context<AppEnv>, tool: ApiTool | undefined, id: unknown) => {
	const presented = bearerOf(c);
	const client = presented ? await clientOf(c, presented) : undefined;
	const scope = tool?.scope;
	if (presented !== undefined && !client) {
		await limitFailedAuth(c);
		const error = presented ? "invalid_token" : "invalid_request";
		return challenge(c, new ApiError("unauthorized"), { error, scope }, id);
	}
	if (scope && !client) return challenge(c, new ApiError("unauthorized"), { scope }, id);
	if (scope && presented && isOAuthToken(presented) && !client?.scopes.includes(scope)) {
		return challenge(c, insufficientScope(scope), { error: "insufficient_scope", scope }, id);
	}
	return { client };
};
