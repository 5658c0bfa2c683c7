import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
	CallToolRequestSchema,
	ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { documentConfig } from "../openapi";
import { type Caller, callOperation } from "./call";
import type { ApiTool } from "./tools";

/**
 * Answers one MCP request over Streamable HTTP, statelessly: a new server and transport for each request (the
 * SDK's stateless mode), JSON answers rather than an event stream, since every tool answers at once.
 */
export const serveMcp = async (
	request: Request,
	tools: ApiTool[],
	caller: Caller,
) => {
	const server = new Server(
		{ name: "petstore-api", version: documentConfig.info.version },
		{
			capabilities: { tools: {} },
			instructions: documentConfig.info.description,
		},
	);
	server.setRequestHandler(ListToolsRequestSchema, () => ({
		tools: tools.map(({ tool }) => tool),
	}));
	server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
		const found = tools.find(({ tool }) => tool.name === params.name);
		if (!found) {
			return {
				content: [{ type: "text", text: `No tool named ${params.name}.` }],
				isError: true,
			};
		}
		return callOperation(found.operation, params.arguments ?? {}, caller);
	});
	const transport = new WebStandardStreamableHTTPServerTransport({
		sessionIdGenerator: undefined,
		enableJsonResponse: true,
	});
	await server.connect(transport);
	return transport.handleRequest(request);
};
