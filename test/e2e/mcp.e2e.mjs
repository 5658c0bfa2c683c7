// Agents as clients, end to end under `wrangler dev`: the official MCP TypeScript SDK's client over Streamable
// HTTP, and the MCP Inspector's CLI, talk to `/mcp`; a write through a tool changes the stock, records its event
// and reaches a webhook receiver on 127.0.0.1.
import { spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root, startWranglerDev } from "../support/wrangler-dev.mjs";

const port = 8930;
const receiverPort = 8931;
const base = `http://127.0.0.1:${port}`;
const authorization = "Bearer petstore-dev-token";
let server;
let receiver;
const received = [];

/** A client of `/mcp` that sends `headers` with every request. */
const connect = async (headers = { authorization }) => {
	const client = new Client({ name: "petstore-e2e", version: "1.0.0" });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
			requestInit: { headers },
		}),
	);
	return client;
};

/** The MCP Inspector's CLI against `/mcp`; its JSON answer. */
const inspector = (...args) => {
	const result = spawnSync(
		"npx",
		[
			"-y",
			"@modelcontextprotocol/inspector@2.12.0",
			"--cli",
			`${base}/mcp`,
			"--transport",
			"http",
			"--header",
			`Authorization: ${authorization}`,
			...args,
		],
		{ cwd: root, encoding: "utf8", timeout: 120_000 },
	);
	if (result.status !== 0) throw new Error(result.stderr || result.stdout);
	return JSON.parse(result.stdout);
};

const stockOf = async (petId) =>
	(await (await fetch(`${base}/store/inventory/${petId}`)).json()).quantity;

beforeAll(async () => {
	receiver = createServer((request, response) => {
		let body = "";
		request.on("data", (chunk) => {
			body += chunk;
		});
		request.on("end", () => {
			received.push(JSON.parse(body));
			response.writeHead(204).end();
		});
	});
	await new Promise((resolve) =>
		receiver.listen(receiverPort, "127.0.0.1", resolve),
	);
	server = await startWranglerDev({ port, envFile: ".dev.vars.example" });
});

afterAll(async () => {
	await server?.stop();
	receiver?.close();
});

describe("MCP with the official SDK client", () => {
	it("lists one tool per operation of /doc", async () => {
		const document = await (await fetch(`${base}/doc`)).json();
		const operations = Object.values(document.paths).flatMap((item) =>
			Object.values(item).map((operation) => operation.operationId),
		);
		const { tools } = await (await connect({})).listTools();
		expect(tools.map((tool) => tool.name).sort()).toEqual(operations.sort());
	});

	it("places an order through a tool: the stock changes, the event is recorded and a webhook receives it", async () => {
		const client = await connect();
		const call = async (name, args) => {
			const result = await client.callTool({ name, arguments: args });
			expect(result.isError).toBeFalsy();
			return result.structuredContent;
		};
		await call("createWebhook", {
			body: {
				url: `http://127.0.0.1:${receiverPort}/hook`,
				events: ["order.placed"],
			},
		});
		const category = await call("createCategory", {
			body: { name: "MCP e2e" },
		});
		const pet = await call("createPet", {
			body: { name: "Agent", categoryId: category.id },
		});
		await call("setInventory", {
			petId: String(pet.id),
			body: { quantity: 4 },
		});

		const order = await call("placeOrder", {
			body: { petId: pet.id, quantity: 3 },
			"Idempotency-Key": "mcp-e2e-order",
		});
		expect(order).toMatchObject({
			petId: pet.id,
			quantity: 3,
			complete: false,
		});
		expect(await stockOf(pet.id)).toBe(1);
		const { items } = await call("listEvents", { type: "order.placed" });
		expect(items.map((event) => event.data.id)).toContain(order.id);
		for (let waited = 0; waited < 30_000; waited += 250) {
			if (received.some((event) => event.data?.id === order.id)) break;
			await sleep(250);
		}
		expect(received).toContainEqual(
			expect.objectContaining({
				type: "order.placed",
				data: expect.objectContaining({ id: order.id }),
			}),
		);
	});

	it("answers a validation error as a tool error carrying the API's Error", async () => {
		const result = await (await connect()).callTool({
			name: "placeOrder",
			arguments: { body: { petId: 1, quantity: 0 } },
		});
		expect(result.isError).toBe(true);
		expect(result.structuredContent).toMatchObject({
			code: "validation_error",
			status: 400,
		});
		expect(JSON.parse(result.content[0].text)).toEqual(
			result.structuredContent,
		);
	});

	it("refuses a write without the token, and reads without it", async () => {
		const client = await connect({});
		const refused = await client.callTool({
			name: "createCategory",
			arguments: { body: { name: "No token" } },
		});
		expect(refused).toMatchObject({
			isError: true,
			structuredContent: { code: "unauthorized", status: 401 },
		});
		const read = await client.callTool({
			name: "listCategories",
			arguments: {},
		});
		expect(read.isError).toBeFalsy();
		expect(
			read.structuredContent.items.map((category) => category.name),
		).not.toContain("No token");
	});
});

describe("MCP with the Inspector's CLI", () => {
	it("lists the tools, whose schemas pass its portability check, and calls one", () => {
		const { tools } = inspector("--method", "tools/list", "--strict");
		expect(tools.map((tool) => tool.name)).toContain("placeOrder");
		const result = inspector(
			"--method",
			"tools/call",
			"--tool-name",
			"createCategory",
			"--tool-arg",
			'body={"name":"From the Inspector"}',
		);
		expect(result.structuredContent).toMatchObject({
			name: "From the Inspector",
		});
	});
});
