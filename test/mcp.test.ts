import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createRoute, z } from "@hono/zod-openapi";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import {
	anonymous,
	origin,
	servedDocument,
	stockedPet,
	stockOf,
	testApp,
	token,
} from "./support/api";

/** An MCP client of `/mcp`, over the app's own `fetch`, sending `headers` with every request. */
const connect = async (
	headers: Record<string, string> = { authorization: `Bearer ${token}` },
	request: (request: Request) => Promise<Response> = testApp().request,
) => {
	const client = new Client({ name: "petstore-test", version: "1.0.0" });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
			requestInit: { headers },
			fetch: (url, init) => request(new Request(url, init)),
		}),
	);
	return client;
};

const operationIds = async () =>
	Object.values((await servedDocument()).paths).flatMap((item) =>
		Object.values(item as Record<string, { operationId?: string }>).flatMap(
			(operation) => operation.operationId ?? [],
		),
	);

describe("the tools are the operations of /doc", () => {
	it("lists one tool per operation, named by its operationId, and no other", async () => {
		const { tools } = await (await connect({})).listTools();
		expect(tools.map((tool) => tool.name).sort()).toEqual(
			(await operationIds()).sort(),
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
						content: {
							"application/json": { schema: z.object({ pong: z.boolean() }) },
						},
					},
				},
			}),
			(c) => c.json({ pong: true }, 200),
		);
		const client = await connect({}, async (request: Request) =>
			app.request(request, undefined, env, createExecutionContext()),
		);
		const { tools } = await client.listTools();
		expect(
			tools.find((tool) => tool.name === "ping")?.annotations,
		).toMatchObject({
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
			expect.arrayContaining([
				"limit",
				"cursor",
				"status",
				"categoryId",
				"name",
			]),
		);
		expect(list?.outputSchema?.anyOf).toMatchObject([
			{ type: "object", properties: { items: { type: "array" } } },
			{ required: expect.arrayContaining(["code", "message", "status"]) },
		]);
		const place = tools.find((tool) => tool.name === "placeOrder");
		expect(place?.inputSchema.properties).toMatchObject({
			"Idempotency-Key": { type: "string" },
			body: { required: ["petId", "quantity"] },
		});
	});

	it("annotates reads, deletes and idempotent writes, and states deprecation and stability", async () => {
		const tools = Object.fromEntries(
			(await (await connect({})).listTools()).tools.map((tool) => [
				tool.name,
				tool,
			]),
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
		expect(tools.placeOrder.annotations).toMatchObject({
			readOnlyHint: false,
			destructiveHint: false,
			idempotentHint: true,
		});
		expect(tools.updatePet.annotations?.idempotentHint).toBe(false);
		expect(tools.getPetById.description).toContain(
			"deprecated, sunset 2027-06-30",
		);
		expect(tools.getPetById._meta).toMatchObject({
			"petstore.example/operation": { deprecated: true, sunset: "2027-06-30" },
		});
		expect(tools.listInventory.description).toContain("stability: beta");
		expect(tools.setInventory._meta).toMatchObject({
			"petstore.example/operation": { stability: "experimental" },
		});
	});
});

describe("a tool call is the API call", () => {
	it("places an order through a tool: the stock changes and the event is recorded", async () => {
		const pet = await stockedPet(5);
		const client = await connect();
		const placed = await client.callTool({
			name: "placeOrder",
			arguments: {
				body: { petId: pet.id, quantity: 2 },
				"Idempotency-Key": `mcp-${pet.id}`,
			},
		});
		expect(placed.isError).toBeFalsy();
		expect(placed.structuredContent).toMatchObject({
			petId: pet.id,
			quantity: 2,
			complete: false,
		});
		expect(placed._meta).toMatchObject({ status: 201 });
		expect(await stockOf(pet.id)).toBe(3);
		const events = await (
			await anonymous(`/events?type=order.placed&limit=100`)
		).json<{ data: { petId: number } }[]>();
		expect(events.some((event) => event.data.petId === pet.id)).toBe(true);

		const replayed = await client.callTool({
			name: "placeOrder",
			arguments: {
				body: { petId: pet.id, quantity: 2 },
				"Idempotency-Key": `mcp-${pet.id}`,
			},
		});
		expect(replayed._meta).toMatchObject({
			headers: { "Idempotency-Replayed": "true" },
		});
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

	it("answers a validation error as a tool error carrying the API's Error", async () => {
		const pet = await stockedPet(5);
		const result = await (await connect()).callTool({
			name: "placeOrder",
			arguments: { body: { petId: pet.id, quantity: 0 } },
		});
		expect(result.isError).toBe(true);
		expect(result.structuredContent).toMatchObject({
			code: "validation_error",
			status: 400,
		});
		expect(result._meta).toMatchObject({ status: 400 });
		expect(await stockOf(pet.id)).toBe(5);
	});

	it("honours If-Match: a stale ETag is a 412 tool error", async () => {
		const pet = await stockedPet(5);
		const result = await (await connect()).callTool({
			name: "setInventory",
			arguments: {
				petId: String(pet.id),
				"If-Match": '"stale"',
				body: { quantity: 1 },
			},
		});
		expect(result.structuredContent).toMatchObject({
			code: "precondition_failed",
		});
		expect(await stockOf(pet.id)).toBe(5);
	});

	it("refuses a write without the token with the API's 401, while reads work", async () => {
		const pet = await stockedPet(5);
		const client = await connect({});
		const refused = await client.callTool({
			name: "placeOrder",
			arguments: { body: { petId: pet.id, quantity: 1 } },
		});
		expect(refused.isError).toBe(true);
		expect(refused.structuredContent).toMatchObject({
			code: "unauthorized",
			status: 401,
		});
		const read = await client.callTool({
			name: "getInventoryItem",
			arguments: { petId: String(pet.id) },
		});
		expect(read.structuredContent).toEqual({
			petId: pet.id,
			quantity: 5,
			status: "available",
		});
		expect(await stockOf(pet.id)).toBe(5);
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
});

describe("/mcp", () => {
	it("is MCP over Streamable HTTP: POST only, stateless (no session id)", async () => {
		const { request } = testApp();
		const answer = await request("/mcp", {
			method: "POST",
			headers: {
				"content-type": "application/json",
				accept: "application/json, text/event-stream",
			},
			body: JSON.stringify({
				jsonrpc: "2.0",
				id: 1,
				method: "initialize",
				params: {
					protocolVersion: "2025-11-25",
					capabilities: {},
					clientInfo: { name: "raw", version: "1" },
				},
			}),
		});
		expect(answer.status).toBe(200);
		expect(answer.headers.get("mcp-session-id")).toBeNull();
		expect(await answer.json()).toMatchObject({
			result: {
				protocolVersion: "2025-11-25",
				serverInfo: { name: "petstore-api" },
			},
		});
		expect((await request("/mcp")).status).toBe(405);
	});
});
