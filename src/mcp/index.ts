import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, Handler, HonoRequest, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../env";
import { bearerOf, credentialClient, type GrantProps, grantClient } from "../http/auth";
import { isObject, parseJson } from "../http/json-body";
import { isLoopbackHost } from "../http/public-hosts";
import { limitFailedAuth, spendReads } from "../http/rate-limit";
import { ApiError, type ErrorBody } from "../models/error";
import { insufficientScope } from "../models/scopes";
import { authorizationServer, oauthPaths, resourceOf, servesOAuth } from "../oauth/server";
import type { Message } from "./server";
import type { ApiTool } from "./tools";
import { current, servedVersions, versionKey } from "./versions";

/** The read budget of a `/mcp` request, spent once at its door: the operation a call runs does not spend it again. */
const budgetSpent: RateLimit = { limit: async () => ({ success: true }) };

export const mcpPath = "/mcp";

type RpcError = { code: number; message: string; data?: unknown };

/** A JSON-RPC error: the one shape of answer an MCP client reads, whatever went wrong. */
const rpcError = (c: Context, status: number, error: RpcError, id: unknown = null) =>
	c.json({ jsonrpc: "2.0", id, error }, status as ContentfulStatusCode);

/**
 * Why `/mcp` refuses a message before serving it: a header belying the body (a gateway may route on them; the SDK
 * says when the current revision lacks them), or a revision not served: the current one names itself in `_meta`, a
 * 2025 one in the header; an `initialize` negotiates, so only a newer header is refused.
 */
const refusalOf = (message: Message, req: HonoRequest, called: unknown): RpcError | undefined => {
	const mismatch = (what: string) => ({ code: -32020, message: `Header mismatch: ${what}.` });
	const unsupported = (requested: string) => ({
		code: -32022,
		message: "Unsupported protocol version",
		data: { supported: servedVersions, requested },
	});
	const claimed = message.params?._meta?.[versionKey];
	const version = req.header("mcp-protocol-version");
	if (claimed !== undefined && version !== undefined && version !== claimed) {
		return mismatch(`the MCP-Protocol-Version header says ${version}, _meta ${String(claimed)}`);
	}
	const [method, name] = [req.header("mcp-method"), req.header("mcp-name")];
	if (method !== undefined && method !== message.method) {
		return mismatch(`the Mcp-Method header says ${method}, the body ${String(message.method)}`);
	}
	if (name !== undefined && name !== called) {
		return mismatch(`the Mcp-Name header says ${name}, the body ${String(called ?? "nothing")}`);
	}
	if (claimed !== undefined) {
		return typeof claimed === "string" && claimed !== current ? unsupported(claimed) : undefined;
	}
	if (version === undefined || servedVersions.includes(version)) return undefined;
	return message.method === "initialize" && version < current ? undefined : unsupported(version);
};

/** Whether a credential is an agent's OAuth token, `user:grant:secret`: no key or root token holds a `:`. */
const isOAuthToken = (credential: string) => credential.includes(":");

/** The client a `/mcp` credential authenticates: a key, the root token, or an agent's token issued for `/mcp`. */
const clientOf = async (c: Context<AppEnv>, credential: string) => {
	if (!isOAuthToken(credential)) return credentialClient(c, credential);
	const origin = new URL(c.req.url).origin;
	if (!servesOAuth(origin)) return undefined;
	const server = authorizationServer(origin);
	const token = await server.validateToken<GrantProps>(resourceOf(origin), credential, c.env);
	return token ? grantClient(c, token.props, token.scope) : undefined;
};

/**
 * Who a `/mcp` request acts as, if it may call the tool it names; else 401 (where to sign in, which scope), or 403
 * `insufficient_scope` to an OAuth token, which can step up: a key or the root token gets the tool error `forbidden`.
 */
const authorize = async (c: Context<AppEnv>, tool: ApiTool | undefined, id: unknown) => {
	/** A refusal an OAuth client acts on (RFC 6750 §3, RFC 9728 §5.1), as the JSON-RPC error it also reads. */
	const challenge = (error: ApiError, fields: { error?: string; scope?: string }) => {
		const metadata = `${new URL(c.req.url).origin}${oauthPaths.resourceMetadata}/mcp`;
		const parameters = Object.entries({ ...fields, resource_metadata: metadata })
			.filter(([, value]) => value !== undefined)
			.map(([name, value]) => `${name}="${value}"`);
		c.header("WWW-Authenticate", `Bearer ${parameters.join(", ")}`);
		const data = { code: error.code, message: error.message, status: error.status };
		return rpcError(c, error.status, { code: -32000, message: error.message, data }, id);
	};
	const presented = bearerOf(c);
	const client = presented ? await clientOf(c, presented) : undefined;
	const scope = tool?.scope;
	if (presented !== undefined && !client) {
		await limitFailedAuth(c);
		const error = presented ? "invalid_token" : "invalid_request";
		return challenge(new ApiError("unauthorized"), { error, scope });
	}
	if (scope && !client) return challenge(new ApiError("unauthorized"), { scope });
	if (scope && presented && isOAuthToken(presented) && !client?.scopes.includes(scope)) {
		return challenge(insufficientScope(scope), { error: "insufficient_scope", scope });
	}
	return { client };
};

/** `/mcp`'s door: only pages of the API's origin or `MCP_ALLOWED_ORIGINS` (against DNS rebinding); errors in JSON-RPC. */
export const mcpDoor: MiddlewareHandler<AppEnv> = async (c, next) => {
	c.header("Cache-Control", "no-store");
	const origin = c.req.header("origin");
	const own = new URL(c.req.url);
	// Locally `wrangler dev` answers any Host: a name rebound to this machine is not the API's own, only loopback is.
	const rebound = c.env.LOCAL_DEVELOPMENT === "true" && !isLoopbackHost(own.hostname);
	const allowed = (c.env.MCP_ALLOWED_ORIGINS ?? "").split(",").map((o) => o.trim());
	if (!rebound) allowed.push(own.origin);
	if (origin && !allowed.includes(origin)) {
		const message = `Forbidden: pages of ${origin} may not call this endpoint.`;
		return rpcError(c, 403, { code: -32000, message });
	}
	await next();
	if (c.error) {
		const error = await c.res.json<ErrorBody>();
		c.res = rpcError(c, error.status, {
			// JSON-RPC's own codes for JSON that is not, and for more than one message.
			code: { malformed_json: -32700, validation_error: -32600 }[error.code] ?? -32000,
			message: error.message,
			data: error,
		});
	}
};

/** The `/mcp` handler, one JSON-RPC message per request; tools and SDK load on the first, sparing REST start-up. */
export const mcp = (app: OpenAPIHono<AppEnv>): Handler<AppEnv> => {
	let tools: Map<string, ApiTool> | undefined;
	return async (c) => {
		// Spent once, while the message is read: a call's operation waits for it, and spends none again.
		const spent = spendReads(c);
		spent.catch(() => {});
		const message = parseJson(await c.req.text()) as Message;
		if (!isObject(message)) {
			throw new ApiError(
				"validation_error",
				Array.isArray(message)
					? "One JSON-RPC message per request: batches are not part of the protocol."
					: "A JSON-RPC message is an object.",
			);
		}
		const [{ toolsOf }, { serveMcp }] = await Promise.all([import("./tools"), import("./server")]);
		tools ??= toolsOf(app);
		const name = message.method === "tools/call" ? message.params?.name : undefined;
		const tool = typeof name === "string" ? tools.get(name) : undefined;
		const authorized = await authorize(c, tool, message.id);
		if (authorized instanceof Response) return spent.then(() => authorized);
		const headers = new Headers({ "x-request-id": c.var.requestId });
		const address = c.req.header("cf-connecting-ip");
		if (address) headers.set("cf-connecting-ip", address);
		// Its calls act as the client it authenticated, whatever the credential: a key, the root token or a grant.
		const env = { ...c.env, READ_LIMITER: budgetSpent, ACTING_CLIENT: authorized.client };
		const refusal = refusalOf(message, c.req, name);
		const answer = refusal
			? rpcError(c, 400, refusal, message.id)
			: await serveMcp(c.req.raw, message, tools, {
					fetch: (request) => spent.then(() => app.fetch(request, env, c.executionCtx)),
					origin: new URL(c.req.url).origin,
					headers,
				});
		await spent;
		// Through the context, for the request id, the secure headers and `no-store` (not an event stream's no-cache).
		return c.body(
			answer.body as ReadableStream,
			answer.status as ContentfulStatusCode,
			Object.fromEntries([...answer.headers].filter(([name]) => name !== "cache-control")),
		);
	};
};
