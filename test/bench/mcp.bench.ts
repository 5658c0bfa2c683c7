import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { testNow } from "../support/api";
import { toolCall } from "../support/mcp";
import { createApp } from "./sides";

// An MCP tool call (revision 2026-07-28) against the REST request it stands for, both through the app bundled
// as `wrangler deploy` bundles it (vitest.config.ts), in alternating rounds as in runtime.bench.ts. The first
// `/mcp` request of this isolate is timed on its own: it loads the MCP SDK and builds the tools.
const requests = Number(env.BENCH_REQUESTS);
const rounds = 9;
const token = env.API_TOKEN.split(",")[0];
const app = createApp({ now: () => testNow });

/** Sends `request` to the app and waits for all it does, `waitUntil` included; its status and body. */
const send = async (request: Request) => {
	const ctx = createExecutionContext();
	const response = await app.fetch(request, env, ctx);
	const body = await response.text();
	await waitOnExecutionContext(ctx);
	return { status: response.status, body };
};

const rest = (method: string, path: string, body?: unknown) =>
	new Request(`http://bench${path}`, {
		method,
		headers: {
			authorization: `Bearer ${token}`,
			...(body !== undefined && { "content-type": "application/json" }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});

/** A `tools/call` as a 2026-07-28 client sends it. */
const tool = (name: string, args: Record<string, unknown>) =>
	toolCall("http://bench/mcp", name, args, { authorization: `Bearer ${token}` });

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Milliseconds per request of `times` requests made by `request`. */
const timed = async (request: () => Request, times: number) => {
	const start = performance.now();
	for (let i = 0; i < times; i++) await send(request());
	return (performance.now() - start) / times;
};

it("times an MCP tool call against the REST request it stands for", async () => {
	// Vitest maps every stack it formats through source maps, at milliseconds a time, which a deployed Worker never
	// does; the MCP SDK has one formatted per exchange (the error it aborts the exchange's handlers with on close).
	const formatStack = Error.prepareStackTrace;
	Error.prepareStackTrace = undefined as unknown as typeof formatStack;
	const category = await send(rest("POST", "/categories", { name: "Bench" }));
	const categoryId = JSON.parse(category.body).id;
	const pet = await send(rest("POST", "/pets", { name: "Bench", categoryId }));
	const petId = JSON.parse(pet.body).id;
	const read = () => tool("getPetById", { petId });

	const firstMs = await timed(read, 1);
	const warmMs = await timed(read, 20);

	const scenarios: Record<string, [() => Request, () => Request]> = {
		"GET /pets/{petId}": [() => rest("GET", `/pets/${petId}`), read],
		"POST /pets": [
			() => rest("POST", "/pets", { name: "Bench", categoryId }),
			() => tool("createPet", { body: { name: "Bench", categoryId } }),
		],
	};
	const results = [];
	for (const [scenario, [request, call]] of Object.entries(scenarios)) {
		expect((await send(request())).status).toBeLessThan(300);
		const answer = JSON.parse((await send(call())).body);
		expect(answer.result._meta.status, scenario).toBeLessThan(300);
		const times: Record<"rest" | "mcp", number[]> = { rest: [], mcp: [] };
		for (let round = 0; round < rounds; round++) {
			const turns = [
				["rest", request],
				["mcp", call],
			] as const;
			for (const [side, make] of round % 2 ? turns.toReversed() : turns) {
				times[side].push(await timed(make, requests));
			}
		}
		results.push({
			scenario,
			restMs: median(times.rest),
			mcpMs: median(times.mcp),
			// A round's two sides ran back to back: the ratio is taken per round, then the median across rounds.
			ratio: median(times.mcp.map((ms, round) => ms / times.rest[round])),
		});
	}
	Error.prepareStackTrace = formatStack;
	console.log(`MCP ${JSON.stringify({ firstMs, warmMs, results })}`);
});
