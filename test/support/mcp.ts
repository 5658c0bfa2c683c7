/** The revision of MCP the tests speak unless they say otherwise. */
export const current = "2026-07-28";

/** The body of one message of the current revision: its `_meta` says which. */
export const message = (method: string, params: Record<string, unknown> = {}) => ({
	jsonrpc: "2.0",
	id: 1,
	method,
	params: {
		...params,
		_meta: {
			"io.modelcontextprotocol/protocolVersion": current,
			"io.modelcontextprotocol/clientCapabilities": {},
		},
	},
});

/** A `tools/call` of the current revision to `url`, its headers mirroring its body, with `headers` besides. */
export const toolCall = (
	url: string,
	name: string,
	args: unknown,
	headers: Record<string, string> = {},
) =>
	new Request(url, {
		method: "POST",
		headers: {
			"content-type": "application/json",
			accept: "application/json, text/event-stream",
			"mcp-protocol-version": current,
			"mcp-method": "tools/call",
			"mcp-name": name,
			...headers,
		},
		body: JSON.stringify(message("tools/call", { name, arguments: args })),
	});
