import {
	createMcpHandler,
	ProtocolError,
	ProtocolErrorCode,
	Server,
} from "@modelcontextprotocol/server";
import { isObject } from "../http/json-body";
import { info } from "../openapi";
import { type Caller, callOperation } from "./call";
import type { ApiTool } from "./tools";
import { servedVersions } from "./versions";

/** A JSON-RPC message, as far as the door reads it. */
export type Message = {
	id?: unknown;
	method?: unknown;
	params?: { _meta?: Record<string, unknown>; name?: unknown; arguments?: unknown };
};

/** Any client may keep the tools and the discovery for an hour: they change only with a deploy. */
const cacheHint = { ttlMs: 60 * 60 * 1000, cacheScope: "public" } as const;

/** Answers one MCP message statelessly; the call (not the SDK) refuses non-object `arguments`, as the API would. */
export const serveMcp = async (
	request: Request,
	message: Message,
	tools: Map<string, ApiTool>,
	caller: Caller,
) => {
	// Absent means none; anything else, `null` included, is for the call to judge.
	const { arguments: args = {} } = isObject(message.params) ? message.params : {};
	const handler = createMcpHandler(() => {
		const server = new Server(
			{ name: "petstore-api", version: info.version },
			{
				capabilities: { tools: {} },
				supportedProtocolVersions: [...servedVersions],
				instructions: info.description,
				cacheHints: { "tools/list": cacheHint, "server/discover": cacheHint },
			},
		);
		server.setRequestHandler("tools/list", () => ({
			tools: [...tools.values()].map(({ tool }) => tool),
		}));
		server.setRequestHandler("tools/call", ({ params }) => {
			const tool = tools.get(params.name);
			if (!tool) {
				throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No tool named ${params.name}.`);
			}
			return callOperation(tool, args, caller);
		});
		return server;
	});
	const answer = await handler.fetch(request, {
		parsedBody: isObject(args)
			? message
			: { ...message, params: { ...message.params, arguments: {} } },
	});
	if (message.method !== "server/discover" || !answer.ok) return answer;
	// The SDK's discovery lists the current revision alone (a 2025 client negotiates with `initialize`), as a JSON
	// body or an event stream's one event; `/mcp` answers one list everywhere, its -32022 errors' included.
	const listed = (await answer.text()).replace(
		/"supportedVersions":\[[^\]]*\]/,
		`"supportedVersions":${JSON.stringify(servedVersions)}`,
	);
	return new Response(listed, answer);
};
