// Webhooks end to end under `wrangler dev`: the real local queue, the endpoints' Durable Objects and their
// alarms, and real receivers on 127.0.0.1 that verify every delivery with the official `standardwebhooks`
// library.
import { createServer } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWranglerDev, wrangler } from "../support/wrangler-dev.mjs";

const port = 8831;
const base = `http://127.0.0.1:${port}`;
const headers = { authorization: "Bearer petstore-dev-token", "content-type": "application/json" };
let server;

const call = async (method, path, body) => {
	const response = await fetch(`${base}${path}`, {
		method,
		headers,
		body: body && JSON.stringify(body),
	});
	return {
		status: response.status,
		body: [202, 204].includes(response.status) ? null : await response.json(),
	};
};

/**
 * A receiver on 127.0.0.1:`port`: keeps each delivery with the moment it arrived and answers 204 (after
 * `delayMs`), or never answers at all (`hang`). `stop()` refuses connections until `start()` again.
 */
const receiver = async (port, { hang = false, delayMs = 0 } = {}) => {
	const received = [];
	const http = createServer((request, response) => {
		let body = "";
		request.on("data", (chunk) => {
			body += chunk;
		});
		request.on("end", () => {
			received.push({ path: request.url, headers: request.headers, body, at: Date.now() });
			if (!hang) {
				setTimeout(() => response.writeHead(204).end(), delayMs);
			}
		});
	});
	const start = () => new Promise((resolve) => http.listen(port, "127.0.0.1", resolve));
	await start();
	return {
		url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
		received,
		start,
		stop: () => {
			http.closeAllConnections();
			return new Promise((resolve) => http.close(resolve));
		},
	};
};

/** Waits until `done()` holds, checking every 100 ms, for at most `ms`. */
const until = async (done, ms) => {
	const deadline = Date.now() + ms;
	while (!done() && Date.now() < deadline) await sleep(100);
};

const subscribe = async (url, events) => {
	const webhook = await call("POST", "/webhooks", { url, events });
	expect(webhook.status).toBe(201);
	return webhook.body;
};

/** Each delivery verified with the webhook's secret, as the event it carries. */
const verified = (secret, deliveries) => {
	const verifier = new Webhook(secret);
	return deliveries.map(({ headers: sent, body }) => verifier.verify(body, sent));
};

let written = 0;
/** A new category (a `category.created` event), and when its write was acknowledged. */
const writeCategory = async () => {
	const category = await call("POST", "/categories", { name: `Hooked ${++written}` });
	expect(category.status).toBe(201);
	return { id: category.body.id, at: Date.now() };
};

const categoryOf = (delivery) => JSON.parse(delivery.body).data.id;

beforeAll(async () => {
	// The committed example's secrets, which allow plain-http webhooks to this machine.
	server = await startWranglerDev({
		port,
		probe: "/health",
		envFile: ".dev.vars.example",
		testScheduled: true,
	});
});

afterAll(async () => {
	server?.stop();
});

describe("webhooks under wrangler dev", () => {
	// A receiver that never answers, and its webhook: subscribed from the second test to the end of the third.
	let hung;
	let stuck;
	afterAll(async () => {
		await hung?.stop();
	});

	it("delivers placed, completed and cancelled orders to a receiver, each verified", async () => {
		const target = await receiver(8832);
		const webhook = await subscribe(target.url(), [
			"order.placed",
			"order.completed",
			"order.cancelled",
		]);
		const category = await call("POST", "/categories", { name: "Webhooks" });
		const pet = await call("POST", "/pets", { name: "Hooked", categoryId: category.body.id });
		await call("PUT", `/store/inventory/${pet.body.id}`, { quantity: 5 });
		const first = await call("POST", "/store/orders", { petId: pet.body.id, quantity: 1 });
		expect((await call("PATCH", `/store/orders/${first.body.id}`, { complete: true })).status).toBe(
			200,
		);
		const second = await call("POST", "/store/orders", { petId: pet.body.id, quantity: 1 });
		expect((await call("DELETE", `/store/orders/${second.body.id}`)).status).toBe(204);

		await until(() => target.received.length >= 4, 10_000);
		// Delivery order is not guaranteed: receivers order by event id.
		const events = verified(webhook.secret, target.received).sort((a, b) => a.id - b.id);
		expect(events.map((event) => [event.type, event.data.id])).toEqual([
			["order.placed", first.body.id],
			["order.completed", first.body.id],
			["order.placed", second.body.id],
			["order.cancelled", second.body.id],
		]);
		const state = await call("GET", `/webhooks/${webhook.id}`);
		expect(state.body).toMatchObject({ lastStatus: 204, failures: 0, disabled: false });
		expect(target.received[0].headers["user-agent"]).toMatch(/^Petstore-Webhooks\//);
		await call("DELETE", `/webhooks/${webhook.id}`);
		await target.stop();
	});

	it("delivers each event to a healthy receiver within 8 s of its write while another never answers", async () => {
		hung = await receiver(8833, { hang: true });
		const healthy = await receiver(8834);
		stuck = await subscribe(hung.url(), ["category.created"]);
		const webhook = await subscribe(healthy.url(), ["category.created"]);
		const writes = [];
		for (let i = 0; i < 5; i++) {
			writes.push(await writeCategory());
			await sleep(1_000);
		}
		await until(() => healthy.received.length >= writes.length, 10_000);
		const arrivals = new Map(
			healthy.received.map((delivery) => [categoryOf(delivery), delivery.at]),
		);
		for (const write of writes) {
			expect(arrivals.get(write.id) - write.at).toBeLessThan(8_000);
		}
		expect(verified(webhook.secret, healthy.received)).toHaveLength(5);
		expect(hung.received.length).toBeGreaterThan(0);
		await call("DELETE", `/webhooks/${webhook.id}`);
		await healthy.stop();
	});

	it("delivers every event of a 25-second outage after it, and keeps the endpoint enabled", async () => {
		const flaky = await receiver(8835);
		const webhook = await subscribe(flaky.url(), ["category.created"]);
		await flaky.stop();
		const down = Date.now();
		const writes = [];
		for (let i = 0; i < 6; i++) {
			writes.push(await writeCategory());
			await sleep(2_000);
		}
		await sleep(25_000 - (Date.now() - down));
		await flaky.start();
		const up = Date.now();
		await until(() => flaky.received.length >= writes.length, 60_000);
		const events = verified(webhook.secret, flaky.received);
		expect(new Set(events.map((event) => event.data.id))).toEqual(
			new Set(writes.map((write) => write.id)),
		);
		expect(Math.max(...flaky.received.map(({ at }) => at)) - up).toBeLessThan(60_000);
		const state = await call("GET", `/webhooks/${webhook.id}`);
		expect(state.body).toMatchObject({ disabled: false, lastStatus: 204 });
		const attempts = await call("GET", `/webhooks/${webhook.id}/deliveries?limit=100`);
		expect(attempts.body.some(({ status }) => status === 0)).toBe(true);
		await call("DELETE", `/webhooks/${webhook.id}`);
		await flaky.stop();

		// Meanwhile the endpoint that never answers had its attempts time out after 15 s, and was retried.
		const timedOut = await call("GET", `/webhooks/${stuck.id}/deliveries?limit=100`);
		expect(timedOut.body).toContainEqual(
			expect.objectContaining({
				status: 0,
				error: "no answer within 15 seconds",
				outcome: "retrying",
			}),
		);
		await call("DELETE", `/webhooks/${stuck.id}`);
	}, 120_000);

	it("delivers a burst of 150 writes to 5 endpoints, all 750 within 6 s of the last write", async () => {
		const target = await receiver(8836);
		const webhooks = [];
		for (let i = 0; i < 5; i++) {
			webhooks.push(await subscribe(target.url(`/hook/${i}`), ["category.created"]));
		}
		const writes = [];
		let started = 0;
		// Ten writers at once, as many clients would.
		const writer = async () => {
			while (started++ < 150) writes.push(await writeCategory());
		};
		await Promise.all(Array.from({ length: 10 }, writer));
		const last = Math.max(...writes.map((write) => write.at));
		await until(() => target.received.length >= 750, 30_000);
		expect(target.received).toHaveLength(750);
		expect(Math.max(...target.received.map(({ at }) => at)) - last).toBeLessThan(6_000);
		for (const [i, webhook] of webhooks.entries()) {
			const events = verified(
				webhook.secret,
				target.received.filter(({ path }) => path === `/hook/${i}`),
			);
			expect(new Set(events.map((event) => event.data.id))).toEqual(
				new Set(writes.map((write) => write.id)),
			);
		}
		await target.stop();
	}, 60_000);

	it("signs each delivery with its own time behind a slow receiver, and starts none after a DELETE's 204", async () => {
		const slow = await receiver(8837, { delayMs: 2_000 });
		const webhook = await subscribe(slow.url(), ["category.created"]);
		// One more than the attempts an endpoint makes at once: the last waits for a slow answer.
		for (let i = 0; i < 21; i++) await writeCategory();
		await until(() => slow.received.length >= 21, 20_000);
		expect(slow.received).toHaveLength(21);
		for (const { headers: sent, at } of slow.received) {
			// Standard Webhooks verifiers refuse a timestamp 5 minutes off; each is within a second of arriving.
			expect(Math.abs(at / 1000 - Number(sent["webhook-timestamp"]))).toBeLessThan(1.5);
		}
		expect(verified(webhook.secret, slow.received)).toHaveLength(21);

		for (let i = 0; i < 25; i++) await writeCategory();
		await until(() => slow.received.length > 21, 10_000);
		expect((await call("DELETE", `/webhooks/${webhook.id}`)).status).toBe(204);
		const answered = Date.now();
		await sleep(6_000);
		// Those under way when it answered may finish; none starts after (each takes 2 s to answer).
		const after = slow.received.filter(({ at }) => at > answered + 2_500);
		expect(after).toEqual([]);
		await slow.stop();
	}, 60_000);

	it("recovers, through wrangler's /__scheduled, an event a crash left in the outbox", async () => {
		const target = await receiver(8838);
		const webhook = await subscribe(target.url(), ["category.created"]);
		// A write's delivery shows that every nudge sent so far has been swept.
		await writeCategory();
		await until(() => target.received.length === 1, 10_000);
		// As a write whose Worker died before it nudged the queue: the event waits in the outbox.
		const createdAt = new Date(Date.now() + 1_000).toISOString();
		wrangler([
			"d1",
			"execute",
			"DB",
			"--local",
			"--persist-to",
			server.state,
			"--command",
			`INSERT INTO events (type, subject, created_at, data) VALUES ('category.created', '/categories/999999', '${createdAt}', '{"id":999999,"name":"Left behind"}')`,
		]);
		await sleep(2_000);
		expect(target.received).toHaveLength(1);
		expect((await fetch(`${base}/__scheduled?cron=*+*+*+*+*`)).status).toBe(200);
		await until(() => target.received.length > 1, 10_000);
		const [, event] = verified(webhook.secret, target.received);
		expect(event.data).toEqual({ id: 999999, name: "Left behind" });
		await target.stop();
	}, 60_000);
});
