// Agents as clients, end to end under `wrangler dev` over the seeded database: the official SDK's v2 client
// (pinned to 2026-07-28, and in `auto` mode), its v1 client, the AI SDK's MCP client, and the MCP Inspector's CLI
// run as the README shows it, each against `/mcp`; a write through a tool changes the stock, records its event
// and reaches a webhook receiver on 127.0.0.1.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { root, startWranglerDev } from "../support/wrangler-dev.mjs";
import { createMCPClient, V1Client, V1Transport } from "../third-party/mcp-clients.mjs";

/** Where the Inspector's commands run: test/third-party, whose `npx` runs the Inspector it pins. */
const inspectorHome = join(root, "test/third-party");

const port = 8930;
const receiverPort = 8931;
const base = `http://127.0.0.1:${port}`;
const url = new URL(`${base}/mcp`);
const authorization = "Bearer petstore-dev-token";
const info = { name: "petstore-e2e", version: "1.0.0" };
let server;
let receiver;
const received = [];

/** A client of the official SDK's v2 package, negotiating the revision as `mode` says. */
const v2 = (mode) => async (headers) => {
	const client = new Client(info, { versionNegotiation: { mode } });
	await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
	return client;
};

/** Each client, connected with `headers`: the revision it speaks, and the same `listTools` and `callTool`. */
const clients = {
	"the SDK's v2 client pinned to 2026-07-28": {
		speaks: "2026-07-28",
		revision: (client) => client.getNegotiatedProtocolVersion(),
		connect: v2({ pin: "2026-07-28" }),
	},
	"the SDK's v2 client in auto mode": {
		speaks: "2026-07-28",
		revision: (client) => client.getNegotiatedProtocolVersion(),
		connect: v2("auto"),
	},
	"the SDK's v1 client": {
		speaks: "2025-11-25",
		revision: (client) => client.transport.protocolVersion,
		connect: async (headers) => {
			const client = new V1Client(info);
			await client.connect(new V1Transport(url, { requestInit: { headers } }));
			return client;
		},
	},
	"the AI SDK's MCP client": {
		speaks: "2026-07-28",
		revision: (client) => client.initializeResult.protocolVersion,
		connect: (headers) => createMCPClient({ transport: { type: "http", url: url.href, headers } }),
	},
};

/** The README's Inspector commands, each on one line, run against this `wrangler dev`. */
const inspectorCommands = readFileSync(join(root, "README.md"), "utf8")
	.replaceAll("\\\n", "")
	.split("\n")
	.filter((line) => line.startsWith("npx @modelcontextprotocol/inspector"))
	.map((line) => line.replaceAll("http://localhost:8787", base));

/**
 * A developer's shell: the project's `node_modules/.bin` is not on the PATH (`npx` puts it there, with the
 * project's Node). The Inspector keeps what it signs in with in a file of this run's own, since each run's
 * `wrangler dev` knows no client registered before it.
 */
const developerEnv = {
	...process.env,
	PATH: process.env.PATH.split(delimiter)
		.filter((entry) => !entry.endsWith(join("node_modules", ".bin")))
		.join(delimiter),
	MCP_INSPECTOR_OAUTH_STATE_PATH: join(mkdtempSync(join(tmpdir(), "inspector-")), "oauth.json"),
};

/**
 * Runs `command` in a shell as a developer would, in test/third-party: the project's `node_modules/.bin` is not
 * on the PATH (this machine's own Node comes first). Its JSON output, its exit status and what it wrote to stderr.
 */
const shell = (command) => {
	const result = spawnSync("sh", ["-c", command], {
		cwd: inspectorHome,
		encoding: "utf8",
		env: developerEnv,
		timeout: 120_000,
	});
	return {
		status: result.status,
		stderr: result.stderr,
		output: JSON.parse(result.stdout || "null"),
	};
};

/** The operations of /doc that are tools: all but the key operations. */
const operationIds = async () => {
	const document = await (await fetch(`${base}/doc`)).json();
	return Object.values(document.paths)
		.flatMap((item) => Object.values(item))
		.filter((operation) => !operation["x-scopes"]?.includes("keys:manage"))
		.map((operation) => operation.operationId);
};

/** What the HTTP 401 of a write without a credential says, as each client raises it. */
const unauthorized = /needs a valid `Authorization: Bearer <token>` header/;

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
	await new Promise((resolve) => receiver.listen(receiverPort, "127.0.0.1", resolve));
	server = await startWranglerDev({
		port,
		envFile: ".dev.vars.example",
		// The local seed, as `npm run dev` applies it; its comments would read as wrangler's options.
		seed: readFileSync(join(root, "src/db/seed.sql"), "utf8").replace(/^--.*$/gm, ""),
	});
});

afterAll(async () => {
	await server?.stop();
	receiver?.close();
});

describe.each(Object.entries(clients))("MCP with %s", (name, client) => {
	it("lists one tool per operation of /doc, in the revision it prefers", async () => {
		const connected = await client.connect({});
		const { tools } = await connected.listTools();
		expect(tools.map((tool) => tool.name).sort()).toEqual((await operationIds()).sort());
		expect(client.revision(connected)).toBe(client.speaks);
		await connected.close();
	});

	it("reads, writes with the token, is refused a write without it, and gets a validation error as a tool error", async () => {
		const agent = await client.connect({ authorization });
		const read = await agent.callTool({ name: "getCategoryById", arguments: { categoryId: 1 } });
		expect(read.structuredContent).toMatchObject({ id: 1, name: "Dog" });
		const category = `Agent ${name}`;
		const written = await agent.callTool({
			name: "createCategory",
			arguments: { body: { name: category } },
		});
		expect(written.isError).toBeFalsy();
		expect(written.structuredContent).toMatchObject({ name: category });

		// Without a credential, a write is an HTTP 401, which a client without OAuth raises.
		const anonymous = await client.connect({});
		await expect(
			anonymous.callTool({
				name: "createCategory",
				arguments: { body: { name: `${category}, anonymous` } },
			}),
		).rejects.toThrow(unauthorized);

		const invalid = await agent.callTool({
			name: "placeOrder",
			arguments: { body: { petId: 1, quantity: 0 } },
		});
		expect(invalid).toMatchObject({
			isError: true,
			structuredContent: { code: "validation_error", status: 400 },
		});
		expect(JSON.parse(invalid.content[0].text)).toEqual(invalid.structuredContent);
		await agent.close();
		await anonymous.close();
	});
});

describe("MCP with the official SDK client", () => {
	it("places an order through a tool: the stock changes, the event is recorded and a webhook receives it", async () => {
		const client = await clients["the SDK's v2 client pinned to 2026-07-28"].connect({
			authorization,
		});
		const call = async (name, args) => {
			const result = await client.callTool({ name, arguments: args });
			expect(result.isError).toBeFalsy();
			return result.structuredContent;
		};
		await call("createWebhook", {
			body: { url: `http://127.0.0.1:${receiverPort}/hook`, events: ["order.placed"] },
		});
		const category = await call("createCategory", { body: { name: "MCP e2e" } });
		const pet = await call("createPet", { body: { name: "Agent", categoryId: category.id } });
		await call("setInventory", { petId: String(pet.id), body: { quantity: 4 } });

		const order = await call("placeOrder", {
			body: { petId: pet.id, quantity: 3 },
			"Idempotency-Key": "mcp-e2e-order",
		});
		expect(order).toMatchObject({ petId: pet.id, quantity: 3, complete: false });
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
});

describe("MCP with the Inspector's CLI, as the README shows it", () => {
	const [list, read, write, signIn] = inspectorCommands;

	it("has the README's four commands: list, read, write, and a write that signs in", () => {
		expect(inspectorCommands).toHaveLength(4);
	});

	it("lists the tools, whose schemas pass its portability check", async () => {
		expect(
			shell(list)
				.output.tools.map((tool) => tool.name)
				.sort(),
		).toEqual((await operationIds()).sort());
		const strict = shell(`${list} --strict`);
		expect(strict.status).toBe(0);
		expect(strict.stderr).not.toMatch(/Warning|Error|portability/);
	});

	it("reads, writes with the token, is refused a write without it, and gets a validation error as a tool error", async () => {
		expect(shell(read).output.structuredContent).toMatchObject({ id: 1, name: "Dog" });
		const stock = await stockOf(1);
		expect(shell(write).output.structuredContent).toMatchObject({
			petId: 1,
			quantity: 1,
			complete: false,
		});
		expect(await stockOf(1)).toBe(stock - 1);
		const anonymous = shell(write.replace(/--header '[^']*' /, ""));
		expect(anonymous.status).not.toBe(0);
		// The Inspector reads the 401's challenge as a call to sign in, which it does only at a terminal.
		expect(anonymous.stderr).toContain('"code":"auth_required"');
		const invalid = shell(write.replace('"quantity": 1', '"quantity": 0'));
		expect(invalid.output).toMatchObject({
			isError: true,
			structuredContent: { code: "validation_error", status: 400 },
		});
		expect(await stockOf(1)).toBe(stock - 1);
	});
	it("signs in from a terminal: prints the consent page's address, takes the way back, and makes the call", async () => {
		// At a terminal it opens a browser; here it prints the address, which the test opens and fills in.
		const inspector = spawn("sh", ["-c", signIn], {
			cwd: inspectorHome,
			env: { ...developerEnv, MCP_AUTO_OPEN_ENABLED: "true" },
			detached: true,
		});
		onTestFinished(() => {
			if (inspector.exitCode === null) process.kill(-inspector.pid, "SIGTERM");
		});
		let [stdout, stderr] = ["", ""];
		inspector.stdout.on("data", (chunk) => {
			stdout += chunk;
		});
		inspector.stderr.on("data", (chunk) => {
			stderr += chunk;
		});
		const exited = new Promise((resolve) => inspector.on("exit", resolve));
		let address;
		for (const start = Date.now(); !address && Date.now() - start < 60_000; await sleep(200)) {
			address = /Please navigate to: (\S+)/.exec(stderr)?.[1];
		}
		const page = await (await fetch(address)).text();
		expect(page).toContain('name="request"');
		const request = /name="request" value="([^"]*)"/.exec(page)[1].replaceAll("&amp;", "&");
		// Allow sends the browser straight back to the Inspector's callback, as a redirect a browser follows.
		const granted = await fetch(`${base}/authorize`, {
			method: "POST",
			body: new URLSearchParams({ request, credential: "petstore-dev-token", decision: "allow" }),
			redirect: "manual",
		});
		expect(granted.status).toBe(303);
		const back = granted.headers.get("location");
		expect(back).toMatch(/^http:\/\/127\.0\.0\.1:6276\/oauth\/callback\?code=/);
		expect((await fetch(back)).status).toBe(200);
		expect(await exited).toBe(0);
		expect(JSON.parse(stdout).structuredContent).toMatchObject({ petId: 1, quantity: 5 });
		expect(await stockOf(1)).toBe(5);
	}, 120_000);
});
