// What a client pays for its first tool call: the official SDK's v2 client and its v1 client each list the tools
// and compile a validator for every output schema before a call can be checked. Per round, in a process of its own
// (as an agent starts), a client connects to the API under `wrangler dev`, lists the tools and calls one (its first
// call), then does the same again (a later call); the cost is the first's time beyond the later's, the median of
// the rounds. `npm run bench` runs it; `npm exec -- node test/bench/mcp-clients.mjs` runs it alone.
import { execFileSync } from "node:child_process";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startWranglerDev } from "../support/wrangler-dev.mjs";
import { V1Client, V1Transport } from "../third-party/mcp-clients.mjs";
import { median } from "./table.mjs";

const clients = {
	"v2 (@modelcontextprotocol/client)": (url) => [
		new Client({ name: "bench", version: "1.0.0" }),
		new StreamableHTTPClientTransport(url),
	],
	"v1 (@modelcontextprotocol/sdk)": (url) => [
		new V1Client({ name: "bench", version: "1.0.0" }),
		new V1Transport(url),
	],
};

/** A list of the tools and a call of one, as a client's first use of a server makes them, in ms. */
const listAndCall = async (client) => {
	const started = performance.now();
	await client.listTools();
	await client.callTool({ name: "getCategoryById", arguments: { categoryId: 1 } });
	return performance.now() - started;
};

/** One client's first and later list-and-call at `url`, in a process of its own. */
const once = (name, url) =>
	JSON.parse(
		execFileSync(process.execPath, [import.meta.filename, "--once", name, url], {
			encoding: "utf8",
		}),
	);

/** Each client's first and later list-and-call, in ms (medians of `rounds` fresh processes), at `base`. */
export const firstCalls = (base, rounds = 7) =>
	Object.fromEntries(
		Object.keys(clients).map((name) => {
			const samples = Array.from({ length: rounds }, () => once(name, `${base}/mcp`));
			return [
				name,
				{
					first: median(samples.map((s) => s.first)),
					later: median(samples.map((s) => s.later)),
					extra: median(samples.map((s) => s.first - s.later)),
				},
			];
		}),
	);

if (process.argv[2] === "--once") {
	const [, , , name, url] = process.argv;
	const [client, transport] = clients[name](new URL(url));
	await client.connect(transport);
	const first = await listAndCall(client);
	const later = await listAndCall(client);
	await client.close();
	console.log(JSON.stringify({ first, later }));
}

if (import.meta.main && process.argv[2] !== "--once") {
	const server = await startWranglerDev({
		port: 8971,
		seed: "INSERT INTO categories (id, name, name_key) VALUES (1, 'Bench', 'bench')",
		probe: "/health",
	});
	try {
		for (const [name, { first, later, extra }] of Object.entries(firstCalls(server.base))) {
			console.log(
				`${name}: first ${first.toFixed(1)} ms, later ${later.toFixed(1)} ms, extra ${extra.toFixed(1)} ms`,
			);
		}
	} finally {
		await server.stop();
	}
}
