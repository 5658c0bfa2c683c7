import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { it } from "vitest";
import { createApp } from "../../src/app";
import { testNow } from "../support/api";
import { watchedD1 } from "../support/d1";
import floor from "./floor";

// Requests per timed run, and runs per side: app and bare floor take turns, in reverse order every other
// round, so that a noisy machine hits both alike. Times are wall time: workerd's clock moves only at I/O, so
// each request's time includes its local D1 work, which both sides share.
const requests = Number(env.BENCH_REQUESTS);
const rounds = 5;
const token = env.API_TOKEN.split(",")[0];

type Side = (request: Request, db?: D1Database) => Promise<Response>;
const app = createApp({ now: () => testNow });
const sides: Record<"app" | "floor", Side> = {
	app: async (request, db = env.DB) =>
		app.fetch(request, { ...env, DB: db }, createExecutionContext()),
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

it("measures time per request in the runtime, app against the bare floor", async () => {
	const category = await sides.app(
		json("POST", "/categories", { name: "Bench" }),
	);
	const { id: categoryId } = await category.json<{ id: number }>();
	const pet = await sides.app(
		json("POST", "/pets", { name: "Bench", categoryId }),
	);
	const { id: petId } = await pet.json<{ id: number }>();
	await sides.app(
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
		const answers: Record<string, Response> = {};
		for (const [side, send] of Object.entries(sides)) {
			const d1 = watchedD1(env.DB);
			answers[side] = await send(request(), d1.binding);
			if (answers[side].status >= 300)
				throw new Error(`${side} ${name}: ${answers[side].status}`);
			d1Calls[side] = d1.calls();
		}
		// The floor must answer what the app answers, or the comparison is not fair.
		if (answers.app.status !== answers.floor.status)
			throw new Error(
				`${name}: the floor answers ${answers.floor.status}, the app ${answers.app.status}`,
			);
		const turns = Object.entries(sides);
		for (let round = 0; round < rounds; round++) {
			for (const [side, send] of round % 2 ? turns.toReversed() : turns) {
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
