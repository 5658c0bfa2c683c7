// Webhooks end to end under `wrangler dev`: the real local queue, and a real receiver on 127.0.0.1 that
// verifies every delivery with the official `standardwebhooks` library.
import { createServer } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWranglerDev } from "../support/wrangler-dev.mjs";

const port = 8795;
const receiverPort = 8796;
const base = `http://127.0.0.1:${port}`;
const headers = {
	authorization: "Bearer petstore-dev-token",
	"content-type": "application/json",
};
let server;
let receiver;
const received = [];

const call = async (method, path, body) => {
	const response = await fetch(`${base}${path}`, {
		method,
		headers,
		body: body && JSON.stringify(body),
	});
	return {
		status: response.status,
		body: response.status === 204 ? null : await response.json(),
	};
};

beforeAll(async () => {
	receiver = createServer((request, response) => {
		let body = "";
		request.on("data", (chunk) => {
			body += chunk;
		});
		request.on("end", () => {
			received.push({ headers: request.headers, body });
			response.writeHead(204).end();
		});
	});
	await new Promise((resolve) =>
		receiver.listen(receiverPort, "127.0.0.1", resolve),
	);
	// The committed example's secrets, which allow plain-http webhooks to this machine.
	server = await startWranglerDev({
		port,
		probe: "/health",
		envFile: ".dev.vars.example",
	});
});

afterAll(async () => {
	server?.stop();
	receiver?.close();
});

describe("webhooks under wrangler dev", () => {
	it("delivers placed, completed and cancelled orders to a receiver, in order, each verified", async () => {
		const webhook = await call("POST", "/webhooks", {
			url: `http://127.0.0.1:${receiverPort}/hook`,
			events: ["order.placed", "order.completed", "order.cancelled"],
		});
		expect(webhook.status).toBe(201);
		const category = await call("POST", "/categories", { name: "Webhooks" });
		const pet = await call("POST", "/pets", {
			name: "Hooked",
			categoryId: category.body.id,
		});
		await call("PUT", `/store/inventory/${pet.body.id}`, { quantity: 5 });
		const first = await call("POST", "/store/orders", {
			petId: pet.body.id,
			quantity: 1,
		});
		expect(
			(
				await call("PATCH", `/store/orders/${first.body.id}`, {
					complete: true,
				})
			).status,
		).toBe(200);
		const second = await call("POST", "/store/orders", {
			petId: pet.body.id,
			quantity: 1,
		});
		expect(
			(await call("DELETE", `/store/orders/${second.body.id}`)).status,
		).toBe(204);

		for (let waited = 0; received.length < 4 && waited < 60_000; waited += 250)
			await sleep(250);
		const verifier = new Webhook(webhook.body.secret);
		const events = received.map(({ headers: sent, body }) =>
			verifier.verify(body, sent),
		);
		expect(events.map((event) => [event.type, event.data.id])).toEqual([
			["order.placed", first.body.id],
			["order.completed", first.body.id],
			["order.placed", second.body.id],
			["order.cancelled", second.body.id],
		]);
		const ids = events.map((event) => event.id);
		expect(ids).toEqual([...ids].sort((a, b) => a - b));
		const state = await call("GET", `/webhooks/${webhook.body.id}`);
		expect(state.body).toMatchObject({
			lastStatus: 204,
			failures: 0,
			disabled: false,
		});
	});
});
