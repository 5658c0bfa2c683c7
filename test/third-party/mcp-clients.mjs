// The MCP clients beside the SDK's v2 one (a dependency of the project): the SDK's v1 client and the AI SDK's.
export { createMCPClient } from "@ai-sdk/mcp";
export { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
export { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
