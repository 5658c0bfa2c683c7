import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { testNow } from "../support/api";
import { watchedD1 } from "../support/d1";
import { createApp, createFloor } from "./sides";

// Requests per timed run, and runs per side: the app and the floor take turns, in reverse order every other
// round, so that a noisy machine hits both alike. Both run bundled as `wrangler deploy` bundles a Worker (see
// vitest.config.ts). Times are wall time: workerd's clock moves only at I/O, so each request's time includes
// its local D1 work, which both sides share. A request ends when its body is read and its `waitUntil` work (the
// queue nudge) is done.
const requests = Number(env.BENCH_REQUESTS);
const rounds = 9;
const token = env.API_TOKEN.split(",")[0];

type Side = { fetch: ExportedHandlerFetchHandler<Env> };
const sides: Record<"app" | "floor", Side> = {
	app: createApp({ now: () => testNow }),
	floor: createFloor({ now: () => testNow }),
};

/** Sends `request` to `side` over `db` and waits for all it does, `waitUntil` included. */
const send = async (side: Side, request: Request, db = env.DB) => {
	const ctx = createExecutionContext();
	const response = await side.fetch(
		request as Request<unknown, IncomingRequestCfProperties>,
		{ ...env, DB: db },
		ctx,
	);
	const body = await response.text();
	await waitOnExecutionContext(ctx);
	return { response, body };
};

const json = (method: string, path: string, body: unknown, credential = token) =>
	new Request(`http://bench${path}`, {
		method,
		headers: { authorization: `Bearer ${credential}`, "content-type": "application/json" },
		body: JSON.stringify(body),
	});

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** What a side answered and sent to D1 for one request: the floor must match the app in all but ids. */
const trace = async (side: Side, request: Request) => {
	const d1 = watchedD1(env.DB);
	const { response, body } = await send(side, request, d1.binding);
	const { id, ...fields } = JSON.parse(body);
	return {
		status: response.status,
		etag: response.headers.get("etag"),
		bookmark: response.headers.has("x-d1-bookmark"),
		fields,
		d1: d1.log(),
	};
};

it("measures time per request in the runtime, app against the floor", async () => {
	const category = await send(sides.app, json("POST", "/categories", { name: "Bench" }));
	const { id: categoryId } = JSON.parse(category.body);
	const pet = await send(sides.app, json("POST", "/pets", { name: "Bench", categoryId }));
	const { id: petId } = JSON.parse(pet.body);
	await send(sides.app, json("PUT", `/store/inventory/${petId}`, { quantity: 1_000_000 }));
	// Writes as a client makes them, with its own key, which the isolate already knows and whose use this
	// minute is already recorded.
	const made = await send(
		sides.app,
		json("POST", "/keys", { name: "Bench", scopes: ["pets:write", "orders:write"] }),
	);
	const { secret } = JSON.parse(made.body);
	await send(sides.app, json("POST", "/categories", { name: "Bench key" }, secret));

	const scenarios: Record<string, () => Request> = {
		"GET /pets/{petId}": () => new Request(`http://bench/pets/${petId}`),
		"POST /pets": () => json("POST", "/pets", { name: "Bench", categoryId }, secret),
		"POST /store/orders": () => json("POST", "/store/orders", { petId, quantity: 1 }, secret),
	};

	const results = [];
	for (const [name, request] of Object.entries(scenarios)) {
		const app = await trace(sides.app, request());
		expect(app.status, `the app's ${name}`).toBeLessThan(300);
		// Otherwise the ratio would mix work with overhead: when the app's statements change, this fails with
		// the app's new ones (expected) beside the floor's (received), to copy into floor-statements.ts.
		expect(
			await trace(sides.floor, request()),
			`the floor's ${name} must do what the app's does`,
		).toEqual(app);

		const times: Record<string, number[]> = { app: [], floor: [] };
		const turns = Object.entries(sides);
		for (let round = 0; round < rounds; round++) {
			for (const [side, handler] of round % 2 ? turns.toReversed() : turns) {
				const start = performance.now();
				for (let i = 0; i < requests; i++) await send(handler, request());
				times[side].push((performance.now() - start) / requests);
			}
		}
		results.push({
			scenario: name,
			appMs: median(times.app),
			floorMs: median(times.floor),
			// A round's two sides ran back to back: the ratio is taken per round, then the median across rounds.
			ratio: median(times.app.map((ms, round) => ms / times.floor[round])),
			d1Calls: app.d1.length,
		});
	}
	console.log(`BENCH ${JSON.stringify(results)}`);
});
