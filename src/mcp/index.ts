import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Handler } from "hono";
import type { AppEnv } from "../env";
import type { ApiTool } from "./tools";

/** Where the Model Context Protocol is served (API.md §12). */
export const mcpPath = "/mcp";

/**
 * The `/mcp` handler of `app`: MCP over Streamable HTTP whose tools are `app`'s operations. The tools and the
 * MCP SDK are loaded on the first request, so the REST routes pay nothing for them at start-up.
 */
export const mcp = (app: OpenAPIHono<AppEnv>): Handler<AppEnv> => {
	let tools: ApiTool[] | undefined;
	return async (c) => {
		const [{ toolsOf }, { serveMcp }] = await Promise.all([
			import("./tools"),
			import("./server"),
		]);
		tools ??= toolsOf(app.openAPIRegistry.definitions);
		// The body the app's middleware read already (src/http/json-body.ts), for the transport to read again.
		const request = new Request(c.req.raw, { body: await c.req.arrayBuffer() });
		return serveMcp(request, tools, {
			fetch: (request) => app.fetch(request, c.env, c.executionCtx),
			origin: new URL(c.req.url).origin,
			headers: c.req.raw.headers,
		});
	};
};
