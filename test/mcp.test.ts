import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createRoute, z } from "@hono/zod-openapi";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { flagsOf } from "../src/http/route";
import {
	anonymous,
	inOneRateWindow,
	origin,
	send,
	servedDocument,
	stockedPet,
	stockOf,
	testApp,
	token,
	uniqueName,
} from "./support/api";
import { current, message } from "./support/mcp";
import { createWebhook } from "./support/webhooks";

/**
 * An MCP client of `/mcp`, over the app's own `fetch`, sending `headers` with every request: pinned to the current
 * revision unless `legacy` (a 2025-11-25 client, which opens with `initialize`).
 */
const connect = async (
	headers: Record<string, string> = { authorization: `Bearer ${token}` },
	request: (request: Request) => Promise<Response> = testApp().request,
	{ legacy = false } = {},
) => {
	const client = new Client(
		{ name: "petstore-test", version: "1.0.0" },
		legacy ? {} : { versionNegotiation: { mode: { pin: current } } },
	);
	await client.connect(
		new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
			requestInit: { headers },
			fetch: (url, init) => request(new Request(url, init)),
		}),
	);
	return client;
};

/** POSTs `body` to /mcp with the headers of the current revision that mirror it, and `headers`. */
const post = (body: unknown, headers: Record<string, string> = {}, app = testApp()) => {
	const { method, params } = (body ?? {}) as { method?: string; params?: { name?: string } };
	return app.request("/mcp", {
		method: "POST",
		headers: {
			"content-type": "application/json",
			accept: "application/json, text/event-stream",
			"mcp-protocol-version": current,
			...(method && { "mcp-method": method }),
			...(params?.name && { "mcp-name": params.name }),
			...headers,
		},
		body: typeof body === "string" ? body : JSON.stringify(body),
	});
};

/**
 * The `initialize` that opens a 2025 revision, offering `protocolVersion`, with the revision header `header` (none,
 * as its clients send it, unless given: one reconnecting may still send the revision it spoke).
 */
const initialize = (protocolVersion: string, header?: string) =>
	testApp().request("/mcp", {
		method: "POST",
		headers: {
			"content-type": "application/json",
			accept: "application/json, text/event-stream",
			...(header !== undefined && { "mcp-protocol-version": header }),
		},
		body: JSON.stringify({
			jsonrpc: "2.0",
			id: 1,
			method: "initialize",
			params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
		}),
	});

/** A JSON-RPC answer, sent as JSON or as the one event of a stream. */
const rpc = async (answer: Response) => {
	const text = await answer.text();
	return JSON.parse(
		answer.headers.get("content-type")?.startsWith("text/event-stream")
			? (/^data: (.+)$/m.exec(text)?.[1] ?? "")
			: text,
	);
};

/** A `tools/call` of the current revision, as the raw JSON-RPC answer. */
const call = async (
	name: string,
	args: unknown,
	headers: Record<string, string> = { authorization: `Bearer ${token}` },
) => rpc(await post(message("tools/call", { name, arguments: args }), headers));

/** The operations of /doc that are tools: all but the key operations, whose secrets stay out of a model's context. */
const operations = async () =>
	Object.values((await servedDocument()).paths)
		.flatMap((item) => Object.values(item as Record<string, DocumentOperation>))
		.filter((operation) => !operation["x-scopes"]?.includes("keys:manage"));

type DocumentOperation = {
	operationId: string;
	"x-scopes"?: string[];
	parameters?: { name: string; in: string; description?: string }[];
	responses: Record<string, { description: string }>;
};

const toolsByName = async () =>
	Object.fromEntries(
		(await (await connect({})).listTools()).tools.map((tool) => [tool.name, tool]),
	);

/** What the MCP Inspector's portability check (--strict) reports about a schema and every schema inside it. */
const unportable = (schema: unknown, at = ""): string[] => {
	if (typeof schema !== "object" || schema === null) {
		return [`${at}: not a schema object`];
	}
	const node = schema as Record<string, unknown>;
	const findings = [
		...(Array.isArray(node.type) ? [`${at}: a list of types`] : []),
		...("$ref" in node ? [`${at}: $ref`] : []),
		...(Object.keys(node).some((keyword) => constraining.has(keyword))
			? []
			: [`${at}: constrains nothing`]),
	];
	const sub = (value: unknown, path: string) => unportable(value, path);
	for (const keyword of ["properties", "patternProperties", "$defs"]) {
		for (const [name, value] of Object.entries((node[keyword] as object) ?? {})) {
			findings.push(...sub(value, `${at}.${keyword}.${name}`));
		}
	}
	for (const keyword of ["allOf", "anyOf", "oneOf"]) {
		(node[keyword] as unknown[] | undefined)?.forEach((value, index) => {
			findings.push(...sub(value, `${at}.${keyword}[${index}]`));
		});
	}
	for (const keyword of ["items", "not", "additionalProperties"]) {
		if (typeof node[keyword] === "object") {
			findings.push(...sub(node[keyword], `${at}.${keyword}`));
		}
	}
	return findings;
};
const constraining = new Set([
	"type",
	"enum",
	"const",
	"anyOf",
	"allOf",
	"oneOf",
	"not",
	"properties",
	"items",
	"required",
	"$ref",
]);

describe("the tools are the operations of /doc", () => {
	it("lists one tool per operation but the key operations, named by its operationId, and no other", async () => {
		const { tools } = await (await connect({})).listTools();
		expect(tools.map((tool) => tool.name).sort()).toEqual(
			(await operations()).map(({ operationId }) => operationId).sort(),
		);
	});

	it("makes a route added to the app a tool, with no other edit", async () => {
		const app = createApp();
		app.openapi(
			createRoute({
				method: "get",
				path: "/ping",
				operationId: "ping",
				summary: "Ping",
				responses: {
					200: {
						description: "Pong.",
						content: { "application/json": { schema: z.object({ pong: z.boolean() }) } },
					},
				},
			}),
			(c) => c.json({ pong: true }, 200),
		);
		const client = await connect({}, async (request: Request) =>
			app.request(request, undefined, env, createExecutionContext()),
		);
		const { tools } = await client.listTools();
		expect(tools.find((tool) => tool.name === "ping")?.annotations).toMatchObject({
			readOnlyHint: true,
		});
	});

	it("derives the input from the path, query, header and body schemas, and the output from the success", async () => {
		const { tools } = await (await connect({})).listTools();
		const update = tools.find((tool) => tool.name === "updatePet");
		expect(Object.keys(update?.inputSchema.properties ?? {})).toEqual(
			expect.arrayContaining(["petId", "If-Match", "body"]),
		);
		expect(update?.inputSchema.required).toEqual(["petId", "body"]);
		const list = tools.find((tool) => tool.name === "listPets");
		expect(Object.keys(list?.inputSchema.properties ?? {})).toEqual(
			expect.arrayContaining(["limit", "cursor", "status", "categoryId", "name"]),
		);
		expect(list?.outputSchema?.anyOf).toMatchObject([
			{
				type: "object",
				properties: { items: { type: "array" }, nextCursor: { type: "string" } },
				required: ["items"],
			},
			{ required: expect.arrayContaining(["code", "message", "status"]) },
		]);
		const place = tools.find((tool) => tool.name === "placeOrder");
		expect(place?.inputSchema.properties).toMatchObject({
			"Idempotency-Key": { type: "string" },
			body: { required: ["petId", "quantity"] },
		});
	});

	it("answers in a success's shape or an Error's members, naming each tool's own refusals in its description: a list small enough to compile at once", async () => {
		const answer = await post(message("tools/list"));
		const text = await answer.text();
		const tools = await toolsByName();
		// Per tool, about half of what it was when every output carried the Error schema with its list of codes (96.4
		// KB for 30 tools), with room for the fields to come (~1.6 KB a tool today): a new resource's tools may add
		// only their share.
		const bytes = new TextEncoder().encode(text).length;
		expect(bytes / Object.keys(tools).length).toBeLessThanOrEqual(2_048);
		for (const operation of await operations()) {
			const { outputSchema, description } = tools[operation.operationId];
			if (outputSchema) {
				const [, refusal] = outputSchema.anyOf as object[];
				expect(refusal).toEqual({ required: ["code", "message", "status"] });
			}
			const codes = Object.entries(operation.responses)
				.filter(([status]) => Number(status) >= 400)
				.flatMap(([, { description }]) =>
					[...description.matchAll(/`(\w+)`/g)].map(([, code]) => code),
				)
				.filter(
					(code) =>
						!["validation_error", "rate_limited", "unavailable", "internal_error"].includes(code),
				)
				.filter(
					(code) =>
						!["payload_too_large", "malformed_json", "unsupported_media_type"].includes(code),
				)
				.filter(
					(code) => !["gone", "precondition_failed", "idempotency_key_reused"].includes(code),
				);
			for (const code of codes) {
				expect(description, `${operation.operationId}: ${code}`).toContain(`\`${code}\``);
			}
		}
	});

	it("types path and query arguments as /doc does: integers, booleans and enums, with /doc's descriptions", async () => {
		const tools = await toolsByName();
		expect(tools.getPetById.inputSchema.properties?.petId).toEqual({
			type: "integer",
			minimum: 1,
			maximum: Number.MAX_SAFE_INTEGER,
		});
		expect(tools.listPets.inputSchema.properties).toMatchObject({
			limit: { type: "integer", minimum: 1, maximum: 100, default: 20, description: "Page size." },
			status: { type: "array", items: { type: "string", enum: ["available", "pending", "sold"] } },
			cursor: { type: "string", description: expect.stringContaining("`nextCursor`") },
		});
		expect(JSON.stringify(tools.listPets.inputSchema.properties?.cursor)).not.toContain("Link");
		expect(tools.listOrders.inputSchema.properties?.complete).toMatchObject({ type: "boolean" });
		for (const operation of await operations()) {
			for (const { name, description } of operation.parameters ?? []) {
				// A tool's page is `{ items, nextCursor }`: its `cursor` speaks of that, not of the `Link` header.
				if (description && !["If-None-Match", "cursor"].includes(name)) {
					expect(
						tools[operation.operationId].inputSchema.properties?.[name],
						`${operation.operationId}: ${name}`,
					).toMatchObject({ description });
				}
			}
		}
	});

	it("has names and schemas every client and model provider takes: no list of types, no $ref, nothing untyped", async () => {
		const { tools } = await (await connect({})).listTools();
		for (const tool of tools) {
			expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
			expect(tool.inputSchema.type).toBe("object");
			expect(unportable(tool.inputSchema, tool.name)).toEqual([]);
			if (tool.outputSchema) {
				expect(tool.outputSchema.type).toBe("object");
				expect(unportable(tool.outputSchema, tool.name)).toEqual([]);
			}
		}
		const deliveries = tools.find((t) => t.name === "listWebhookDeliveries");
		expect(JSON.stringify(deliveries?.outputSchema)).toContain('"anyOf":[{"type":"string"');
	});

	it("keeps the flags each route declared readable on the registered route", () => {
		const routes = Object.fromEntries(
			createApp().openAPIRegistry.definitions.flatMap((definition) =>
				definition.type === "route" ? [[definition.route.operationId, definition.route]] : [],
			),
		);
		expect(flagsOf(routes.placeOrder)).toMatchObject({
			scope: "orders:write",
			idempotent: true,
			tag: { name: "Orders" },
		});
		expect(flagsOf(routes.getPetById)).toMatchObject({
			conditional: true,
			lifecycle: { deprecated: { sunset: "2027-06-30" } },
		});
		expect(flagsOf(routes.listPets)?.scope).toBeUndefined();
	});

	it("annotates reads, deletes and the writes that are idempotent whatever their arguments, and states deprecation and stability", async () => {
		const tools = Object.fromEntries(
			(await (await connect({})).listTools()).tools.map((tool) => [tool.name, tool]),
		);
		expect(tools.listPets.annotations).toMatchObject({
			readOnlyHint: true,
			destructiveHint: false,
			idempotentHint: true,
		});
		expect(tools.deletePet.annotations).toMatchObject({
			readOnlyHint: false,
			destructiveHint: true,
			idempotentHint: true,
		});
		// Its Idempotency-Key is optional: a repeat without one places another order.
		expect(tools.placeOrder.annotations).toMatchObject({
			readOnlyHint: false,
			destructiveHint: false,
			idempotentHint: false,
		});
		expect(tools.updatePet.annotations?.idempotentHint).toBe(false);
		expect(tools.getPetById.description).toContain("deprecated, sunset 2027-06-30");
		expect(tools.getPetById._meta).toMatchObject({
			"petstore.example/operation": { deprecated: true, sunset: "2027-06-30" },
		});
		expect(tools.listInventory.description).toContain("stability: beta");
		expect(tools.setInventory._meta).toMatchObject({
			"petstore.example/operation": { stability: "experimental" },
		});
	});
});

describe("both revisions on one endpoint, stateless", () => {
	it("serves a client pinned to 2026-07-28 and a 2025-11-25 client the same tools and calls", async () => {
		const pet = await stockedPet(3);
		const pinned = await connect(undefined, undefined);
		const legacy = await connect(undefined, undefined, { legacy: true });
		expect(pinned.getProtocolEra()).toBe("modern");
		expect(legacy.getNegotiatedProtocolVersion()).toBe("2025-11-25");
		expect((await legacy.listTools()).tools).toEqual((await pinned.listTools()).tools);
		for (const client of [pinned, legacy]) {
			const read = await client.callTool({
				name: "getInventoryItem",
				arguments: { petId: pet.id },
			});
			expect(read.structuredContent).toEqual({ petId: pet.id, quantity: 3, status: "available" });
		}
	});

	it("answers server/discover with the revisions it serves (the one list its -32022 names), the tools capability, the server and how long to keep it", async () => {
		const answer = await rpc(await post(message("server/discover")));
		expect(answer.result).toMatchObject({
			resultType: "complete",
			supportedVersions: [current, "2025-11-25"],
			capabilities: { tools: {} },
			ttlMs: 3_600_000,
			cacheScope: "public",
			_meta: { "io.modelcontextprotocol/serverInfo": { name: "petstore-api" } },
		});
	});

	it("lists the tools with ttlMs and cacheScope, in the same order every time", async () => {
		const first = await rpc(await post(message("tools/list")));
		expect(first.result).toMatchObject({
			resultType: "complete",
			ttlMs: 3_600_000,
			cacheScope: "public",
		});
		const second = await rpc(await post(message("tools/list")));
		expect(second.result.tools).toEqual(first.result.tools);
	});

	it("answers a version it does not serve with the spec's error, listing both it serves", async () => {
		const body = message("tools/list");
		body.params._meta["io.modelcontextprotocol/protocolVersion"] = "2099-01-01";
		const answer = await post(body, { "mcp-protocol-version": "2099-01-01" });
		expect(answer.status).toBe(400);
		expect(await answer.json()).toMatchObject({
			id: 1,
			error: {
				code: -32022,
				data: { supported: [current, "2025-11-25"], requested: "2099-01-01" },
			},
		});
	});

	it("answers a request whose header names a revision it does not serve with the same error, whatever its era", async () => {
		for (const requested of ["2099-01-01", "2025-06-18", "2024-11-05"]) {
			const answer = await post(
				{ jsonrpc: "2.0", id: 2, method: "tools/list" },
				{ "mcp-protocol-version": requested },
			);
			expect(answer.status).toBe(400);
			expect(await answer.json()).toMatchObject({
				id: 2,
				error: { code: -32022, data: { supported: [current, "2025-11-25"], requested } },
			});
		}
	});

	it("answers an initialize whose header names a revision newer than it serves with the spec's -32022", async () => {
		const answer = await initialize("2025-11-25", "2099-01-01");
		expect(answer.status).toBe(400);
		expect(await answer.json()).toMatchObject({
			id: 1,
			error: {
				code: -32022,
				data: { supported: [current, "2025-11-25"], requested: "2099-01-01" },
			},
		});
	});

	it("holds a 2025-11-25 message to its Mcp-Method and Mcp-Name headers when it sends them: a gateway routing on them is never bypassed", async () => {
		const name = uniqueName("Rerouted");
		const legacy = { "mcp-protocol-version": "2025-11-25" };
		const call = {
			jsonrpc: "2.0",
			id: 3,
			method: "tools/call",
			params: { name: "createCategory", arguments: { body: { name } } },
		};
		for (const headers of [
			{ "mcp-name": "getCategoryById" } as Record<string, string>,
			{ "mcp-method": "tools/list" },
			{ "mcp-method": "tools/call", "mcp-name": "" },
		]) {
			const answer = await post(call, { authorization: `Bearer ${token}`, ...legacy, ...headers });
			expect(answer.status).toBe(400);
			expect(await answer.json()).toMatchObject({ id: 3, error: { code: -32020 } });
		}
		// The name is still free: no call created it. Headers that agree, or none, are served.
		expect((await send("POST", "/categories", { name })).status).toBe(201);
		const listed = await post({ jsonrpc: "2.0", id: 4, method: "tools/list" }, legacy);
		expect(listed.status).toBe(200);
	});

	it("offers 2025-11-25 to a client that opens with an older revision's initialize, whatever header it sends", async () => {
		for (const offered of ["2025-06-18", "2024-11-05"]) {
			for (const header of [undefined, offered, ""]) {
				const answer = await initialize(offered, header);
				expect((await rpc(answer)).result).toMatchObject({ protocolVersion: "2025-11-25" });
			}
		}
	});

	it("answers a request of the current revision whose header names another with the spec's -32020", async () => {
		for (const header of ["2025-11-25", "2025-06-18"]) {
			const answer = await post(message("tools/list"), { "mcp-protocol-version": header });
			expect(answer.status).toBe(400);
			expect(await answer.json()).toMatchObject({ error: { code: -32020 } });
		}
	});

	it("answers a header that belies the body with -32020 before any version check, an unserved _meta revision included", async () => {
		const body = message("server/discover");
		body.params._meta["io.modelcontextprotocol/protocolVersion"] = "2099-01-01";
		const belying: Record<string, string>[] = [
			{ "mcp-protocol-version": current },
			{ "mcp-protocol-version": "2099-01-01", "mcp-method": "tools/list" },
		];
		for (const headers of belying) {
			const answer = await post(body, headers);
			expect(answer.status).toBe(400);
			expect(await answer.json()).toMatchObject({ id: 1, error: { code: -32020 } });
		}
	});

	it("answers server/discover without _meta, as a 2025 request, without failing: the method is the current revision's", async () => {
		const answer = await post(
			{ jsonrpc: "2.0", id: 5, method: "server/discover", params: {} },
			{ "mcp-protocol-version": "2025-11-25" },
		);
		expect(answer.status).toBe(200);
		expect(await rpc(answer)).toMatchObject({ id: 5, error: { code: -32601 } });
	});

	it("checks the headers the current revision requires: a missing or different Mcp-Method is the spec's error", async () => {
		for (const headers of [{ "mcp-method": "" }, { "mcp-method": "tools/call" }]) {
			const answer = await post(message("tools/list"), headers);
			expect(answer.status).toBe(400);
			expect(await answer.json()).toMatchObject({ error: { code: -32020 } });
		}
	});

	it("checks Mcp-Name against the tool a call names: a different one is the spec's error, and nothing runs", async () => {
		const name = uniqueName("Misnamed");
		const call = message("tools/call", { name: "createCategory", arguments: { body: { name } } });
		const answer = await post(call, {
			authorization: `Bearer ${token}`,
			"mcp-name": "listCategories",
		});
		expect(answer.status).toBe(400);
		expect(await answer.json()).toMatchObject({ error: { code: -32020 } });
		// The name is still free: the call created nothing.
		expect((await send("POST", "/categories", { name })).status).toBe(201);
	});

	it("holds a JSON-RPC body to the API's JSON rules: another JSON type is 415", async () => {
		const answer = await post(message("tools/list"), {
			"content-type": "application/vnd.api+json",
		});
		expect(answer.status).toBe(415);
		expect(await answer.json()).toMatchObject({
			error: { code: -32000, data: { code: "unsupported_media_type", status: 415 } },
		});
	});

	it("is MCP over Streamable HTTP: POST only, stateless (no session id)", async () => {
		const answer = await initialize("2025-11-25");
		expect(answer.status).toBe(200);
		expect(answer.headers.get("mcp-session-id")).toBeNull();
		expect(await rpc(answer)).toMatchObject({
			result: { protocolVersion: "2025-11-25", serverInfo: { name: "petstore-api" } },
		});
		expect((await testApp().request("/mcp")).status).toBe(405);
	});
});

describe("a tool call is the API call", () => {
	it("places an order through a tool: the stock changes and the event is recorded", async () => {
		const pet = await stockedPet(5);
		const client = await connect();
		const placed = await client.callTool({
			name: "placeOrder",
			arguments: { body: { petId: pet.id, quantity: 2 }, "Idempotency-Key": `mcp-${pet.id}` },
		});
		expect(placed.isError).toBeFalsy();
		expect(placed.structuredContent).toMatchObject({ petId: pet.id, quantity: 2, complete: false });
		expect(placed._meta).toMatchObject({ status: 201 });
		expect(await stockOf(pet.id)).toBe(3);
		const events = await (await anonymous(`/events?type=order.placed&limit=100`)).json<
			{ data: { petId: number } }[]
		>();
		expect(events.some((event) => event.data.petId === pet.id)).toBe(true);

		const replayed = await client.callTool({
			name: "placeOrder",
			arguments: { body: { petId: pet.id, quantity: 2 }, "Idempotency-Key": `mcp-${pet.id}` },
		});
		expect(replayed._meta).toMatchObject({ headers: { "Idempotency-Replayed": "true" } });
		expect(await stockOf(pet.id)).toBe(3);
	});

	it("reads a page as items with the next cursor", async () => {
		await stockedPet(1);
		await stockedPet(1);
		const page = await (await connect({})).callTool({
			name: "listInventory",
			arguments: { limit: "1" },
		});
		expect(page.structuredContent).toMatchObject({
			items: [expect.objectContaining({ quantity: expect.any(Number) })],
			nextCursor: expect.any(String),
		});
	});

	it("takes integers where /doc says integer, and still the digits it took before", async () => {
		const pet = await stockedPet(4);
		const client = await connect({});
		for (const petId of [pet.id, String(pet.id)]) {
			const read = await client.callTool({ name: "getInventoryItem", arguments: { petId } });
			expect(read.structuredContent).toMatchObject({ quantity: 4 });
		}
		const page = await client.callTool({
			name: "listInventory",
			arguments: { limit: 1, status: ["available"] },
		});
		expect(page.structuredContent).toMatchObject({ items: [expect.anything()] });
	});

	it("answers a validation error as a tool error carrying the API's Error", async () => {
		const pet = await stockedPet(5);
		const result = await (await connect()).callTool({
			name: "placeOrder",
			arguments: { body: { petId: pet.id, quantity: 0 } },
		});
		expect(result.isError).toBe(true);
		expect(result.structuredContent).toMatchObject({ code: "validation_error", status: 400 });
		expect(result._meta).toMatchObject({ status: 400 });
		expect(await stockOf(pet.id)).toBe(5);
	});

	it("honours If-Match: a stale ETag is a 412 tool error", async () => {
		const pet = await stockedPet(5);
		const result = await (await connect()).callTool({
			name: "setInventory",
			arguments: { petId: String(pet.id), "If-Match": '"stale"', body: { quantity: 1 } },
		});
		expect(result.structuredContent).toMatchObject({ code: "precondition_failed" });
		expect(await stockOf(pet.id)).toBe(5);
	});

	it("answers a call that needs a scope, sent without a credential, with HTTP 401 saying where to sign in; reads need none", async () => {
		const pet = await stockedPet(5);
		const refused = await post(
			message("tools/call", {
				name: "placeOrder",
				arguments: { body: { petId: pet.id, quantity: 1 } },
			}),
		);
		expect(refused.status).toBe(401);
		expect(refused.headers.get("www-authenticate")).toBe(
			`Bearer scope="orders:write", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
		);
		expect(await refused.json()).toMatchObject({
			error: { code: -32000, data: { code: "unauthorized", status: 401 } },
		});
		const client = await connect({});
		const read = await client.callTool({
			name: "getInventoryItem",
			arguments: { petId: String(pet.id) },
		});
		expect(read.structuredContent).toEqual({ petId: pet.id, quantity: 5, status: "available" });
		expect((await client.listTools()).tools.length).toBeGreaterThan(0);
		expect(await stockOf(pet.id)).toBe(5);
	});

	it("answers a credential that fails with HTTP 401 invalid_token, whatever it asks", async () => {
		const refused = await post(message("tools/list"), { authorization: "Bearer pst_wrong" });
		expect(refused.status).toBe(401);
		expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
	});

	it("acts as the key of its /mcp request: its scopes (a tool error `forbidden` naming a missing one), and its webhooks only", async () => {
		const made = await send("POST", "/keys", {
			name: uniqueName("Agent"),
			scopes: ["orders:write", "webhooks:manage"],
		});
		const { secret } = await made.json<{ secret: string }>();
		await createWebhook(["pet.created"]);
		const client = await connect({ authorization: `Bearer ${secret}` });
		const pet = await stockedPet(5);
		const placed = await client.callTool({
			name: "placeOrder",
			arguments: { body: { petId: pet.id, quantity: 1 } },
		});
		expect(placed.isError).toBeFalsy();
		const refused = await post(
			message("tools/call", {
				name: "createCategory",
				arguments: { body: { name: uniqueName("Agent") } },
			}),
			{ authorization: `Bearer ${secret}` },
		);
		// A key cannot step up as an agent's token can: the model reads the API's own refusal, naming the scope.
		expect(refused.status).toBe(200);
		expect(refused.headers.get("www-authenticate")).toBeNull();
		expect((await rpc(refused)).result).toMatchObject({
			isError: true,
			structuredContent: {
				code: "forbidden",
				status: 403,
				message: expect.stringContaining("pets:write"),
			},
		});
		const listed = await client.callTool({ name: "listWebhooks", arguments: {} });
		expect(listed.structuredContent).toEqual({ items: [] });
	});

	it("answers a deleted resource's 204 as text without structured content", async () => {
		const pet = await stockedPet(0);
		const result = await (await connect()).callTool({
			name: "deletePet",
			arguments: { petId: String(pet.id) },
		});
		expect(result).toMatchObject({
			content: [{ type: "text", text: expect.stringContaining("204") }],
		});
		expect(await stockOf(pet.id)).toBeNull();
	});

	it("sends the API call under the /mcp request's id", async () => {
		const pet = await stockedPet(1);
		const answer = await post(
			message("tools/call", { name: "getInventoryItem", arguments: { petId: pet.id } }),
		);
		const id = answer.headers.get("x-request-id");
		expect(id).toBeTruthy();
		expect((await rpc(answer)).result._meta.headers["X-Request-Id"]).toBe(id);
	});
});

describe("a tool call stays inside its route", () => {
	const validationError = (result: { isError?: boolean }, path: string) =>
		expect(result).toMatchObject({
			isError: true,
			structuredContent: {
				code: "validation_error",
				status: 400,
				details: [expect.objectContaining({ path })],
			},
			_meta: { status: 400 },
		});

	it.each([".", "..", "/", "%2F", "1/../2", { toString: 1 }, ["1"], null, 1.5])(
		"refuses the path argument %j before building a request",
		async (petId) => {
			const pet = await stockedPet(2);
			const { result } = await call("deletePet", { petId });
			validationError(result, "path.petId");
			expect(await stockOf(pet.id)).toBe(2);
		},
	);

	it("never turns a path argument into another operation: rotateWebhookSecret with '.' rotates nothing", async () => {
		const { result } = await call("rotateWebhookSecret", { webhookId: "." });
		validationError(result, "path.webhookId");
	});

	it.each(["a\r\nX-Injected: 1", "a\nb", "a\0b", "a\u0007b"])(
		"refuses a header argument HTTP cannot carry (%j)",
		async (key) => {
			const pet = await stockedPet(2);
			const { result } = await call("placeOrder", {
				body: { petId: pet.id, quantity: 1 },
				"Idempotency-Key": key,
			});
			validationError(result, "header.Idempotency-Key");
			expect(await stockOf(pet.id)).toBe(2);
		},
	);

	it("refuses a query argument its route refuses, an object as much as a bad number", async () => {
		for (const limit of [{ toString: 1 }, 0, "x"]) {
			validationError((await call("listPets", { limit })).result, "query.limit");
		}
	});

	it("refuses an argument the tool does not take, and arguments that are not an object", async () => {
		validationError((await call("listPets", { colour: "red" })).result, "arguments.colour");
		// Names every object has, which a plain lookup would find.
		for (const name of ["toString", "constructor", "__proto__"]) {
			const args = JSON.parse(`{"${name}": 1}`);
			validationError((await call("placeOrder", args)).result, `arguments.${name}`);
		}
		for (const args of [[1], "petId", 7, null]) {
			validationError((await call("getPetById", args)).result, "arguments");
		}
	});

	it("takes null for an optional argument, or an optional body field, as not given", async () => {
		const pet = await stockedPet(5);
		const listed = await call("listPets", { limit: null, cursor: null, status: null, name: null });
		expect(listed.result.isError).toBeUndefined();
		const placed = await call("placeOrder", {
			body: { petId: pet.id, quantity: 1, shipDate: null },
			"Idempotency-Key": null,
		});
		expect(placed.result).toMatchObject({
			structuredContent: { petId: pet.id, quantity: 1, complete: false },
		});
		expect(await stockOf(pet.id)).toBe(4);
	});

	it("speaks of an argument's own type when it is wrong, null for a required one included", async () => {
		const cases = [
			["getPetById", { petId: null }, "path.petId", "expected integer, received null"],
			["getPetById", { petId: { id: 1 } }, "path.petId", "expected integer, received object"],
			["getPetById", { petId: 1.5 }, "path.petId", "expected integer, received number"],
			["listPets", { limit: true }, "query.limit", "expected integer, received boolean"],
			["listPets", { status: [7] }, "query.status", "expected string, received integer"],
		] as const;
		for (const [tool, args, path, message] of cases) {
			const { result } = await call(tool, args);
			expect(result.structuredContent.details).toEqual([{ path, message }]);
		}
	});

	it("names the allowed values of an enum, in a tool as in REST", async () => {
		const allowed = 'must be one of "available", "pending", "sold"';
		const { result } = await call("listPets", { status: ["lost"] });
		expect(result.structuredContent.details).toEqual([{ path: "query.status", message: allowed }]);
		const rest = await anonymous("/pets?status=lost");
		expect((await rest.json<{ details: unknown[] }>()).details).toEqual([
			{ path: "query.status", message: allowed },
		]);
	});

	it("names every problem of a call at once, as REST does, under the request's id", async () => {
		const answer = await post(
			message("tools/call", {
				name: "createPet",
				arguments: { colour: "red", body: { name: "", categoryId: "one", extra: 1 } },
			}),
			{ authorization: `Bearer ${token}` },
		);
		const { result } = await rpc(answer);
		expect(
			result.structuredContent.details.map(({ path }: { path: string }) => path).sort(),
		).toEqual(["arguments.colour", "body.categoryId", "body.extra", "body.name"]);
		expect(result._meta.headers["X-Request-Id"]).toBe(answer.headers.get("x-request-id"));
	});

	it("answers an unknown tool with the spec's protocol error, -32602", async () => {
		const answer = await call("noSuchTool", {});
		expect(answer).toMatchObject({ id: 1, error: { code: -32602 } });
		expect(answer.result).toBeUndefined();
	});
});

describe("no tool answer carries a secret", () => {
	it("creates a webhook and rotates its secret without answering it, saying where a person gets one: REST", async () => {
		const created = await call("createWebhook", {
			body: { url: "https://hooks.example.com/secretless", events: ["pet.created"] },
		});
		const rotated = await call("rotateWebhookSecret", {
			webhookId: created.result.structuredContent.id,
		});
		for (const { result } of [created, rotated]) {
			expect(result.isError).toBeFalsy();
			expect(result.structuredContent).not.toHaveProperty("secret");
			expect(JSON.stringify(result)).not.toContain("whsec_");
		}
		const tools = await toolsByName();
		for (const name of ["createWebhook", "rotateWebhookSecret"]) {
			expect(tools[name].description).toContain("shown once over REST");
			expect(JSON.stringify(tools[name].outputSchema)).not.toContain('"secret"');
		}
	});
});

describe("the /mcp door holds the API's rules", () => {
	const pageOf = (origin: string) => ({ origin });

	it("refuses a page of another origin with 403, and serves the API's own, a configured one and none", async () => {
		const refused = await post(message("tools/list"), pageOf("https://evil.example"));
		expect(refused.status).toBe(403);
		expect(await refused.json()).toMatchObject({ id: null, error: { code: -32000 } });
		const configured = testApp({
			bindings: { MCP_ALLOWED_ORIGINS: "https://agent.example, https://x.example" },
		});
		for (const [headers, app] of [
			[pageOf(origin), testApp()],
			[pageOf("https://agent.example"), configured],
			[{}, testApp()],
		] as const) {
			expect((await post(message("tools/list"), headers, app)).status).toBe(200);
		}
		expect((await post(message("tools/list"), pageOf("null"), configured)).status).toBe(403);
	});

	it("locally, takes only a loopback host for its own: a page whose name was rebound to this machine is refused", async () => {
		const local = testApp({ bindings: { LOCAL_DEVELOPMENT: "true" } });
		const from = (base: string) =>
			local.request(`${base}/mcp`, {
				method: "POST",
				headers: {
					"content-type": "application/json",
					accept: "application/json, text/event-stream",
					"mcp-protocol-version": current,
					"mcp-method": "tools/list",
					origin: base,
				},
				body: JSON.stringify(message("tools/list")),
			});
		expect((await from("http://rebind.attacker.example:8787")).status).toBe(403);
		expect((await from("http://127.0.0.1:8787")).status).toBe(200);
		expect((await from("http://localhost:8787")).status).toBe(200);
	});

	it("carries the request id, the secure headers and no-store on every answer", async () => {
		const created = await post(
			message("tools/call", {
				name: "createWebhook",
				arguments: { body: { url: "https://hooks.example.com/mcp", events: ["pet.created"] } },
			}),
			{ authorization: `Bearer ${token}` },
		);
		expect((await rpc(created.clone())).result.isError).toBeFalsy();
		const answers = [
			created,
			await post(message("tools/list")),
			await post(message("tools/list"), { origin: "https://evil.example" }),
			await post("{", {}),
			await post([message("tools/list")]),
			await testApp().request("/mcp", {
				method: "POST",
				headers: {
					"content-type": "application/json",
					accept: "application/json, text/event-stream",
				},
				body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
			}),
		];
		for (const answer of answers) {
			expect(answer.headers.get("x-request-id")).toBeTruthy();
			expect(answer.headers.get("cache-control")).toBe("no-store");
			expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
			expect(answer.headers.get("x-frame-options")).toBe("DENY");
		}
	});

	it("refuses a batch with the spec's error, executing nothing in it", async () => {
		const name = `Batch ${crypto.randomUUID()}`;
		const create = message("tools/call", { name: "createCategory", arguments: { body: { name } } });
		const answer = await post([create, { ...create, id: 2 }], { authorization: `Bearer ${token}` });
		expect(answer.status).toBe(400);
		expect(await answer.json()).toMatchObject({
			id: null,
			error: { code: -32600, data: { code: "validation_error" } },
		});
		const categories = await (await anonymous("/categories?limit=100")).json<{ name: string }[]>();
		expect(categories.map((category) => category.name)).not.toContain(name);
	});

	it("counts every /mcp request on the read budget of its address, once, whatever its operation answers", async () => {
		await inOneRateWindow();
		const limited = testApp({ bindings: { READ_LIMITER: env.TINY_LIMITER } });
		const send = (body: unknown, address: string) =>
			post(body, { "cf-connecting-ip": address }, limited);
		const listed = "198.51.100.33";
		for (let request = 0; request < 2; request++) {
			expect((await send(message("tools/list"), listed)).status).toBe(200);
		}
		const refused = await send(message("tools/list"), listed);
		expect(refused.status).toBe(429);
		expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
		expect(await refused.json()).toMatchObject({
			error: { code: -32000, data: { code: "rate_limited", status: 429 } },
		});

		const pet = await stockedPet(1);
		const read = message("tools/call", { name: "getInventoryItem", arguments: { petId: pet.id } });
		const reader = "198.51.100.34";
		for (let request = 0; request < 2; request++) {
			expect((await rpc(await send(read, reader))).result).toMatchObject({
				structuredContent: { quantity: 1 },
			});
		}
		expect((await send(read, reader)).status).toBe(429);

		const invalid = message("tools/call", { name: "getInventoryItem", arguments: { petId: "." } });
		const prober = "198.51.100.35";
		for (let request = 0; request < 2; request++) {
			expect((await rpc(await send(invalid, prober))).result).toMatchObject({
				structuredContent: { code: "validation_error" },
			});
		}
		expect((await send(invalid, prober)).status).toBe(429);

		// A read that needs the token, sent without it, and JSON that is not, are counted too.
		const unauthorized = "198.51.100.37";
		const listWebhooks = message("tools/call", { name: "listWebhooks", arguments: {} });
		for (let request = 0; request < 2; request++) {
			expect((await send(listWebhooks, unauthorized)).status).toBe(401);
		}
		expect((await send(listWebhooks, unauthorized)).status).toBe(429);
		const garbled = "198.51.100.38";
		for (let request = 0; request < 2; request++) {
			expect((await send("{", garbled)).status).toBe(400);
		}
		expect((await send(message("tools/list"), garbled)).status).toBe(429);

		// A call of a write spends the read budget too, before it is sent, beside the write budget of its token.
		const write = (name: string) =>
			post(
				message("tools/call", { name: "createCategory", arguments: { body: { name } } }),
				{ "cf-connecting-ip": "198.51.100.36", authorization: `Bearer ${token}` },
				limited,
			);
		for (let request = 0; request < 2; request++) {
			expect((await rpc(await write(uniqueName("Budget")))).result).toMatchObject({
				_meta: { status: 201 },
			});
		}
		const refusedName = uniqueName("Refused");
		expect((await write(refusedName)).status).toBe(429);
		const categories = await (await anonymous("/categories?limit=100")).json<{ name: string }[]>();
		expect(categories.map((category) => category.name)).not.toContain(refusedName);
	});

	it("answers the transport's own errors in JSON-RPC: a body too large, JSON that is not, bytes that are not UTF-8", async () => {
		const large = await post(
			message("tools/call", {
				name: "createCategory",
				arguments: { body: { name: "x".repeat(20_000) } },
			}),
		);
		expect(large.status).toBe(413);
		expect(await large.json()).toMatchObject({
			error: { code: -32000, data: { code: "payload_too_large" } },
		});
		const malformed = await post('{"jsonrpc": "2.0",');
		expect(malformed.status).toBe(400);
		expect(await malformed.json()).toMatchObject({
			id: null,
			error: { code: -32700, data: { code: "malformed_json" } },
		});
		for (const notAMessage of ["null", "7", '"tools/list"']) {
			const refused = await post(notAMessage);
			expect(refused.status).toBe(400);
			expect(await refused.json()).toMatchObject({ error: { code: -32600 } });
		}
		const latin1 = await testApp().request("/mcp", {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: new Uint8Array([0x7b, 0x22, 0xe9, 0x22, 0x7d]),
		});
		expect(latin1.status).toBe(400);
		expect(await latin1.json()).toMatchObject({
			error: { code: -32700, data: { code: "malformed_json" } },
		});
	});
});
