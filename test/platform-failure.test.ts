import {
	createExecutionContext,
	createMessageBatch,
	getQueueResult,
	runInDurableObject,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readRetryBudgetMs } from "../src/http/router";
import { endpointOf } from "../src/webhooks/endpoint-config";
import { consume, waitingEvents } from "../src/webhooks/outbox/events";
import type { WebhookMessage } from "../src/webhooks/outbox/nudge";
import {
	api,
	createCategory,
	createPet,
	expectError,
	type Order,
	stockedPet,
	stockOf,
	testApp,
	testNow,
} from "./support/api";
import { cronAt, newestEvent } from "./support/webhooks";

/** D1's documented retryable error (https://developers.cloudflare.com/d1/observability/debug-d1/#error-list). */
const connectionLost = () => new Error("D1_ERROR: Network connection lost.");
/** D1's documented error that is not to be retried at once. */
const overloaded = () => new Error("D1_ERROR: D1 DB is overloaded. Requests queued for too long.");

/**
 * The real `env.DB`, fault-injected: the executions (a statement's run, or a batch) that `fails(n)` picks, n
 * counting from 0, reject with `error()` — before D1 runs them, or, with `after`, once D1 has applied them (the
 * answer is lost on the way back).
 */
const faultyD1 = ({
	fails,
	error = connectionLost,
	after = false,
}: {
	fails: (n: number) => boolean;
	error?: () => Error;
	after?: boolean;
}) => {
	let executions = 0;
	const real = new WeakMap<object, D1PreparedStatement>();
	const gate = async <T>(run: () => Promise<T>) => {
		const failing = fails(executions++);
		if (failing && !after) throw error();
		const result = await run();
		if (failing) throw error();
		return result;
	};
	const statement = (s: D1PreparedStatement): D1PreparedStatement => {
		const wrapper = {
			bind: (...values: unknown[]) => statement(s.bind(...values)),
			first: (column: string) => gate(() => s.first(column)),
			run: () => gate(() => s.run()),
			all: () => gate(() => s.all()),
			raw: (options: { columnNames: true }) => gate(() => s.raw(options)),
		} as unknown as D1PreparedStatement;
		real.set(wrapper, s);
		return wrapper;
	};
	const over = (d1: D1DatabaseSession | D1Database) => ({
		prepare: (query: string) => statement(d1.prepare(query)),
		batch: (statements: D1PreparedStatement[]) =>
			gate(() => d1.batch(statements.map((s) => real.get(s) ?? s))),
		getBookmark: () => ("getBookmark" in d1 ? d1.getBookmark() : null),
	});
	const DB = {
		...over(env.DB),
		withSession: (constraint: string) => over(env.DB.withSession(constraint)),
	} as unknown as D1Database;
	return { DB, executions: () => executions };
};

const always = () => true;

/** The console.error lines of the test, parsed. */
const errorLog = () => vi.spyOn(console, "error").mockImplementation(() => {});

afterEach(() => {
	vi.restoreAllMocks();
});

/** Asserts a 503 `unavailable` with `Retry-After`, and returns its message. */
const expectUnavailable = async (response: Response) => {
	const { message } = await expectError(response, 503, "unavailable");
	expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
	return message;
};

/** The id of the newest event: a write that changed anything recorded one. */
const newestEventId = async () => {
	const events = await (await api("/events?limit=100")).json<{ id: number }[]>();
	let last = events.at(-1)?.id ?? 0;
	for (;;) {
		const page = await (await api(`/events?after=${last}&limit=100`)).json<{ id: number }[]>();
		if (page.length === 0) return last;
		last = page.at(-1)?.id ?? last;
	}
};

describe("reads when D1 fails", () => {
	it("a transient failure is retried and not seen by the client", async () => {
		const pet = await createPet((await createCategory()).id);
		const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
		const d1 = faultyD1({ fails: (n) => n < 2 });
		const { api: faulty } = testApp({ bindings: { DB: d1.DB } });
		const response = await faulty(`/store/inventory/${pet.id}`);
		expect(response.status).toBe(200);
		expect(d1.executions()).toBe(3);
		const logged = warnings.mock.calls.map(([line]) => JSON.parse(String(line)));
		expect(logged).toEqual([
			{ level: "warn", part: "d1", requestId: response.headers.get("x-request-id"), recovered: 2 },
		]);
	});

	it.each([
		"/pets",
		"/pets/999999",
		"/categories",
		"/categories/999999",
		"/store/orders",
		"/store/orders/999999",
		"/store/inventory",
		"/store/inventory/999999",
		"/events",
		"/webhooks",
		"/webhooks/999999",
		"/webhooks/999999/deliveries",
		"/keys",
		"/keys/999999",
	])("a transient failure of GET %s is retried whole: the client sees its answer", async (path) => {
		vi.spyOn(console, "warn").mockImplementation(() => {});
		const d1 = faultyD1({ fails: (n) => n < 2 });
		const response = await testApp({ bindings: { DB: d1.DB } }).api(path);
		// Found, or not (a 404 is the read's own answer): either way after the two failures, never a 503.
		expect([200, 404]).toContain(response.status);
		expect(d1.executions()).toBeGreaterThan(2);
	});

	it("under local development, the schema check before a read retries a transient failure too", async () => {
		const pet = await createPet((await createCategory()).id);
		vi.spyOn(console, "warn").mockImplementation(() => {});
		const d1 = faultyD1({ fails: (n) => n < 2 });
		const { api: faulty } = testApp({ bindings: { DB: d1.DB, LOCAL_DEVELOPMENT: "true" } });
		expect((await faulty(`/store/inventory/${pet.id}`)).status).toBe(200);
	});

	it.each(["/pets", "/categories", "/store/orders", "/store/inventory", "/events", "/webhooks"])(
		"a lasting failure of GET %s is a 503 with Retry-After, logged once with the part",
		async (path) => {
			const logged = errorLog();
			const { api: faulty } = testApp({ bindings: { DB: faultyD1({ fails: always }).DB } });
			const started = Date.now();
			const response = await faulty(path);
			await expectUnavailable(response);
			expect(Date.now() - started).toBeLessThan(readRetryBudgetMs + 1000);
			expect(logged).toHaveBeenCalledTimes(1);
			expect(JSON.parse(String(logged.mock.calls[0][0]))).toMatchObject({
				level: "error",
				part: "d1",
				requestId: response.headers.get("x-request-id"),
			});
		},
	);

	it("/health retries a transient failure too", async () => {
		vi.spyOn(console, "warn").mockImplementation(() => {});
		const d1 = faultyD1({ fails: (n) => n < 2 });
		const { anonymous: faulty } = testApp({ bindings: { DB: d1.DB } });
		expect((await faulty("/health")).status).toBe(200);
		expect(d1.executions()).toBe(3);
	});

	it("/health answers 503 with Retry-After and names the part that is down", async () => {
		const { anonymous: faulty } = testApp({ bindings: { DB: faultyD1({ fails: always }).DB } });
		expect(await expectUnavailable(await faulty("/health"))).toMatch(/Part down: d1\./);
	});

	it("a single resource's GET is a 503 too, and an error D1 says not to retry is not retried", async () => {
		errorLog();
		const pet = await createPet((await createCategory()).id);
		for (const path of [
			`/pets/${pet.id}`,
			`/categories/${pet.categoryId}`,
			`/store/inventory/${pet.id}`,
		]) {
			const d1 = faultyD1({ fails: always, error: overloaded });
			const response = await testApp({ bindings: { DB: d1.DB } }).api(path);
			const message = await expectUnavailable(response);
			expect(message).toMatch(/retry in \d+ seconds/);
			expect(d1.executions()).toBe(1);
		}
	});

	it("a defect of our own (a statement D1 refuses) stays a 500", async () => {
		errorLog();
		const d1 = faultyD1({
			fails: always,
			error: () => new Error("D1_ERROR: no such column: nope: SQLITE_ERROR"),
		});
		await expectError(
			await testApp({ bindings: { DB: d1.DB } }).api("/pets"),
			500,
			"internal_error",
		);
		expect(d1.executions()).toBe(1);
	});
});

describe("writes when D1 fails", () => {
	it("an order whose batch fails is a 503 that says a keyed retry is safe; the retry places it exactly once", async () => {
		errorLog();
		const pet = await stockedPet(10);
		const key = crypto.randomUUID();
		const before = await newestEventId();
		const d1 = faultyD1({ fails: always });
		const order = { petId: pet.id, quantity: 3 };
		const failed = await testApp({ bindings: { DB: d1.DB } }).send("POST", "/store/orders", order, {
			"idempotency-key": key,
		});
		expect(await expectUnavailable(failed)).toMatch(/same Idempotency-Key is safe/);
		expect(d1.executions()).toBe(1);
		expect(await stockOf(pet.id)).toBe(10);
		expect(await newestEventId()).toBe(before);
		const { send } = testApp();
		const placed = await send("POST", "/store/orders", order, { "idempotency-key": key });
		expect(placed.status).toBe(201);
		const again = await send("POST", "/store/orders", order, { "idempotency-key": key });
		expect(again.headers.get("idempotency-replayed")).toBe("true");
		expect((await again.json<Order>()).id).toBe((await placed.json<Order>()).id);
		expect(await stockOf(pet.id)).toBe(7);
	});

	it("an order D1 applied but whose answer was lost is a 503; the keyed retry replays it, stock taken once", async () => {
		errorLog();
		const pet = await stockedPet(10);
		const key = crypto.randomUUID();
		const order = { petId: pet.id, quantity: 4 };
		const d1 = faultyD1({ fails: always, after: true });
		await expectUnavailable(
			await testApp({ bindings: { DB: d1.DB } }).send("POST", "/store/orders", order, {
				"idempotency-key": key,
			}),
		);
		expect(d1.executions()).toBe(1);
		const retried = await testApp().send("POST", "/store/orders", order, {
			"idempotency-key": key,
		});
		expect(retried.status).toBe(201);
		expect(retried.headers.get("idempotency-replayed")).toBe("true");
		expect(await stockOf(pet.id)).toBe(6);
	});

	it("every kind of write is a 503 that changes nothing, and is never run twice", async () => {
		errorLog();
		const pet = await stockedPet(10);
		const placed = await testApp().send("POST", "/store/orders", { petId: pet.id, quantity: 1 });
		const order = await placed.json<Order>();
		const writes: [string, string, unknown?][] = [
			["POST", "/categories", { name: `Failing ${crypto.randomUUID()}` }],
			["PUT", `/categories/${pet.categoryId}`, { name: `Failing ${crypto.randomUUID()}` }],
			["PATCH", `/categories/${pet.categoryId}`, { description: "failing" }],
			["DELETE", `/categories/${pet.categoryId}`],
			["POST", "/pets", { name: "Failing", categoryId: pet.categoryId }],
			["PUT", `/pets/${pet.id}`, { name: "Failing", categoryId: pet.categoryId }],
			["PATCH", `/pets/${pet.id}`, { status: "sold" }],
			["DELETE", `/pets/${pet.id}`],
			["POST", "/store/orders", { petId: pet.id, quantity: 1 }],
			["PATCH", `/store/orders/${order.id}`, { complete: true }],
			["DELETE", `/store/orders/${order.id}`],
			["PUT", `/store/inventory/${pet.id}`, { quantity: 99 }],
			["POST", "/webhooks", { url: "http://127.0.0.1:9999/hook", events: ["pet.created"] }],
		];
		const before = await newestEventId();
		for (const [method, path, body] of writes) {
			const d1 = faultyD1({ fails: always });
			const { api: faulty } = testApp({ bindings: { DB: d1.DB } });
			const response = await faulty(path, {
				method,
				...(body !== undefined && {
					headers: { "content-type": "application/json" },
					body: JSON.stringify(body),
				}),
			});
			expect(await expectUnavailable(response), `${method} ${path}`).toMatch(/Idempotency-Key/);
			expect(d1.executions(), `${method} ${path}`).toBe(1);
		}
		expect(await newestEventId()).toBe(before);
		expect(await stockOf(pet.id)).toBe(9);
	});
});

describe("a webhook's Durable Object that fails", () => {
	it("answers 503, leaves the webhook's D1 row as the write committed it, and the next sweep configures the endpoint", async () => {
		const logged = errorLog();
		const { send } = testApp();
		const created = await send("POST", "/webhooks", {
			url: "http://127.0.0.1:9999/hook",
			events: ["pet.created"],
		});
		const webhook = await created.json<{ id: number }>();
		// The endpoint now holds the webhook's config.
		expect(
			(await send("PATCH", `/webhooks/${webhook.id}`, { events: ["pet.created", "pet.updated"] }))
				.status,
		).toBe(200);
		const reset = Object.assign(new Error("Durable Object reset because its code was updated."), {
			retryable: true,
		});
		const failing = {
			getByName: () => new Proxy({}, { get: () => () => Promise.reject(reset) }),
		} as unknown as Env["WEBHOOK_ENDPOINT"];
		const faulty = testApp({ bindings: { WEBHOOK_ENDPOINT: failing } });
		const url = "http://127.0.0.1:9999/moved";
		const patched = await faulty.send("PATCH", `/webhooks/${webhook.id}`, { url, disabled: true });
		expect(await expectUnavailable(patched)).toMatch(/Idempotency-Key/);
		expect(logged).toHaveBeenCalledTimes(1);
		expect(JSON.parse(String(logged.mock.calls[0][0]))).toMatchObject({
			level: "error",
			part: "durable-object",
			requestId: patched.headers.get("x-request-id"),
		});
		await expectUnavailable(await faulty.api(`/webhooks/${webhook.id}`));
		expect(await (await api(`/webhooks/${webhook.id}`)).json()).toMatchObject({
			id: webhook.id,
			url,
			disabled: true,
		});
		const endpoint = endpointOf(env, webhook.id);
		const held = () => runInDurableObject(endpoint, (instance) => instance["store"].endpoint());
		expect(await held()).toMatchObject({ url: "http://127.0.0.1:9999/hook", disabled: false });
		await cronAt(testNow);
		expect(await held()).toMatchObject({ url, disabled: true });
	});
});

describe("a queue send that fails", () => {
	it("leaves the committed write a 201, its event waiting for the sweep, and logs the part once", async () => {
		const logged = vi.spyOn(console, "warn").mockImplementation(() => {});
		const unreachable = {
			send: () => Promise.reject(new Error("Queue send failed: internal error")),
		} as unknown as Queue;
		const created = await testApp({ bindings: { WEBHOOK_QUEUE: unreachable } }).send(
			"POST",
			"/categories",
			{ name: `Queued ${crypto.randomUUID()}` },
		);
		expect(created.status).toBe(201);
		const { id } = await created.json<{ id: number }>();
		const event = await newestEvent(`/categories/${id}`);
		const waiting = await waitingEvents(drizzle(env.DB), 10_000);
		expect(waiting.map((waiting) => waiting.id)).toContain(event);
		await vi.waitFor(() => expect(logged).toHaveBeenCalledTimes(1));
		expect(JSON.parse(String(logged.mock.calls[0][0]))).toMatchObject({
			level: "warn",
			part: "queue",
			requestId: created.headers.get("x-request-id"),
		});
	});
});

describe("a queue batch whose sweep fails", () => {
	it("is logged once, structured, with the part that failed, and retried", async () => {
		const logged = errorLog();
		const batch = createMessageBatch<WebhookMessage>("petstore-webhooks", [
			{ id: "failing-sweep", timestamp: new Date(testNow), attempts: 1, body: { kind: "sweep" } },
		]);
		const { DB } = faultyD1({
			fails: always,
			error: () => new Error("D1_ERROR: database is locked: SQLITE_BUSY"),
		});
		await consume(batch, { ...env, DB }, testNow);
		const result = await getQueueResult(batch, createExecutionContext());
		expect(result.retryBatch.retry).toBe(true);
		expect(result.explicitAcks).toEqual([]);
		expect(logged).toHaveBeenCalledTimes(1);
		expect(JSON.parse(String(logged.mock.calls[0][0]))).toMatchObject({
			level: "error",
			part: "d1",
			error: expect.stringMatching(/database is locked/),
		});
	});
});
