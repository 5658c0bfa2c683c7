import { env, exports } from "cloudflare:workers";
import { it } from "vitest";
import { createApp } from "../../src/app";
import { countingD1 } from "../support/d1";
import floor from "./floor";

// Requests per timed run, and runs per side: app and floor alternate so that a noisy machine hits both.
const requests = Number(env.BENCH_REQUESTS);
const rounds = 5;
const token = env.API_TOKEN.split(",")[0];

type Side = (request: Request, db?: D1Database) => Promise<Response>;
const app = createApp();
const sides: Record<"app" | "floor", Side> = {
	app: async (request, db = env.DB) => app.fetch(request, { ...env, DB: db }),
	floor: async (request, db = env.DB) =>
		floor.fetch(request as Request<unknown, IncomingRequestCfProperties>, {
			...env,
			DB: db,
		}),
};

const json = (method: string, path: string, body: unknown) =>
	new Request(`http://bench${path}`, {
		method,
		headers: {
			authorization: `Bearer ${token}`,
			"content-type": "application/json",
		},
		body: JSON.stringify(body),
	});

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

it("measures time per request in the runtime, app against floor", async () => {
	const category = await exports.default.fetch(
		json("POST", "/categories", { name: "Bench" }),
	);
	const { id: categoryId } = await category.json<{ id: number }>();
	const pet = await exports.default.fetch(
		json("POST", "/pets", { name: "Bench", categoryId }),
	);
	const { id: petId } = await pet.json<{ id: number }>();
	await exports.default.fetch(
		json("PUT", `/store/inventory/${petId}`, { quantity: 1_000_000 }),
	);

	const scenarios: Record<string, () => Request> = {
		"GET /pets/{petId}": () => new Request(`http://bench/pets/${petId}`),
		"POST /pets": () => json("POST", "/pets", { name: "Bench", categoryId }),
		"POST /store/orders": () =>
			json("POST", "/store/orders", { petId, quantity: 1 }),
	};

	const results = [];
	for (const [name, request] of Object.entries(scenarios)) {
		const times: Record<string, number[]> = { app: [], floor: [] };
		const d1Calls: Record<string, number> = {};
		for (const [side, send] of Object.entries(sides)) {
			const d1 = countingD1(env.DB);
			const response = await send(request(), d1.binding);
			if (response.status >= 300)
				throw new Error(`${side} ${name}: ${response.status}`);
			d1Calls[side] = d1.calls();
		}
		for (let round = 0; round < rounds; round++) {
			for (const [side, send] of Object.entries(sides)) {
				const start = performance.now();
				for (let i = 0; i < requests; i++)
					await (await send(request())).arrayBuffer();
				times[side].push((performance.now() - start) / requests);
			}
		}
		results.push({
			scenario: name,
			appMs: median(times.app),
			floorMs: median(times.floor),
			appD1Calls: d1Calls.app,
			floorD1Calls: d1Calls.floor,
		});
	}
	console.log(`BENCH ${JSON.stringify(results)}`);
});
