import {
	createExecutionContext,
	createScheduledController,
	waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import {
	api,
	collectPages,
	expectError,
	type Order,
	placeOrder,
	send,
	stockedPet,
	stockOf,
	testNow,
} from "./support/api";

const ordersOf = async (petId: number) =>
	(await collectPages<Order>(`/store/orders?petId=${petId}`)).items;

describe("Idempotency-Key on POST /store/orders", () => {
	it("replays the first response for a retry and takes no stock twice", async () => {
		const pet = await stockedPet(10);
		const first = await placeOrder({ petId: pet.id, quantity: 3 }, "retry-1");
		expect(first.status).toBe(201);
		expect(first.headers.get("idempotency-replayed")).toBeNull();
		const body = await first.json<Order>();

		const retry = await placeOrder({ quantity: 3, petId: pet.id }, "retry-1");
		expect(retry.status).toBe(201);
		expect(retry.headers.get("idempotency-replayed")).toBe("true");
		expect(retry.headers.get("location")).toBe(`/store/orders/${body.id}`);
		expect(retry.headers.get("etag")).toBe(first.headers.get("etag"));
		expect(await retry.json()).toEqual(body);
		expect(await stockOf(pet.id)).toBe(7);
		expect(await ordersOf(pet.id)).toHaveLength(1);
	});

	it("replays the first response even after the order changed", async () => {
		const pet = await stockedPet(10);
		const placed = await placeOrder({ petId: pet.id, quantity: 1 }, "changed-1");
		const first = await placed.json<Order>();
		await api(`/store/orders/${first.id}`, {
			method: "PATCH",
			headers: { "content-type": "application/json" },
			body: JSON.stringify({ complete: true }),
		});
		const retry = await placeOrder({ petId: pet.id, quantity: 1 }, "changed-1");
		expect(await retry.json()).toEqual(first);
		expect(retry.headers.get("etag")).toBe(placed.headers.get("etag"));
		expect((await api(`/store/orders/${first.id}`)).headers.get("etag")).not.toBe(
			placed.headers.get("etag"),
		);
	});

	it("answers 422 idempotency_key_reused for the same key with another body", async () => {
		const pet = await stockedPet(10);
		await placeOrder({ petId: pet.id, quantity: 1 }, "reused-1");
		await expectError(
			await placeOrder({ petId: pet.id, quantity: 2 }, "reused-1"),
			422,
			"idempotency_key_reused",
		);
		expect(await stockOf(pet.id)).toBe(9);
	});

	it("places one order for concurrent duplicates", async () => {
		const pet = await stockedPet(100);
		const responses = await Promise.all(
			Array.from({ length: 20 }, () => placeOrder({ petId: pet.id, quantity: 2 }, "concurrent-1")),
		);
		const bodies = await Promise.all(responses.map((response) => response.json<Order>()));
		expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
		expect(responses.filter((r) => r.headers.get("idempotency-replayed") === "true")).toHaveLength(
			19,
		);
		expect(new Set(bodies.map((body) => body.id)).size).toBe(1);
		expect(await stockOf(pet.id)).toBe(98);
		expect(await ordersOf(pet.id)).toHaveLength(1);
	});

	it("does not record a failed placement, so a retry can succeed once stock arrives", async () => {
		const pet = await stockedPet(0);
		await expectError(
			await placeOrder({ petId: pet.id, quantity: 1 }, "later-1"),
			409,
			"insufficient_stock",
		);
		await api(`/store/inventory/${pet.id}`, {
			method: "PUT",
			headers: { "content-type": "application/json" },
			body: JSON.stringify({ quantity: 1 }),
		});
		expect((await placeOrder({ petId: pet.id, quantity: 1 }, "later-1")).status).toBe(201);
	});

	it("ignores a record older than 24 hours and places the order afresh", async () => {
		const pet = await stockedPet(10);
		await placeOrder({ petId: pet.id, quantity: 1 }, "old-1");
		await env.DB.prepare(
			"UPDATE idempotency_keys SET created_at = created_at - 86400001 WHERE key = ?",
		)
			// The root token's keys are stored in its scope.
			.bind("root:old-1")
			.run();
		const again = await placeOrder({ petId: pet.id, quantity: 1 }, "old-1");
		expect(again.status).toBe(201);
		expect(again.headers.get("idempotency-replayed")).toBeNull();
		expect(await stockOf(pet.id)).toBe(8);
	});

	it("rejects a key over 255 characters and takes nothing", async () => {
		const pet = await stockedPet(10);
		await expectError(
			await placeOrder({ petId: pet.id, quantity: 1 }, "k".repeat(256)),
			400,
			"validation_error",
		);
		expect(await stockOf(pet.id)).toBe(10);
	});

	it("rejects a key that is not printable ASCII, as a tool call's header, and takes nothing", async () => {
		const pet = await stockedPet(10);
		await expectError(
			await placeOrder({ petId: pet.id, quantity: 1 }, "café"),
			400,
			"validation_error",
		);
		expect(await stockOf(pet.id)).toBe(10);
	});

	it("treats an empty key as none: each placement is its own", async () => {
		const pet = await stockedPet(10);
		for (let attempt = 0; attempt < 2; attempt++) {
			const response = await api("/store/orders", {
				method: "POST",
				headers: { "content-type": "application/json", "idempotency-key": "" },
				body: JSON.stringify({ petId: pet.id, quantity: 1 }),
			});
			expect(response.status).toBe(201);
			expect(response.headers.get("idempotency-replayed")).toBeNull();
		}
		expect(await stockOf(pet.id)).toBe(8);
	});
});

describe("the every-minute Cron Trigger", () => {
	const day = 24 * 60 * 60 * 1000;
	const recorded = async (key: string) =>
		(await env.DB.prepare("SELECT key FROM idempotency_keys WHERE key = ?")
			.bind(`root:${key}`)
			.first()) !== null;
	const runCron = async (scheduledTime: number) => {
		const controller = createScheduledController({ scheduledTime, cron: "0 * * * *" });
		const ctx = createExecutionContext();
		await worker.scheduled(controller, env, ctx);
		await waitOnExecutionContext(ctx);
	};

	it("deletes the records whose 24 hours have passed, and only those", async () => {
		const pet = await stockedPet(10);
		await placeOrder({ petId: pet.id, quantity: 1 }, "cron-1");
		await runCron(testNow + day);
		expect(await recorded("cron-1")).toBe(true);
		await runCron(testNow + day + 1);
		expect(await recorded("cron-1")).toBe(false);
	});
});

describe("Idempotency-Key on the other creates", () => {
	it.each([
		["POST /pets", "/pets", (categoryId: number) => ({ name: "Once", categoryId })],
		["POST /categories", "/categories", () => ({ name: `Once ${crypto.randomUUID()}` })],
	])(
		"%s replays the first response for a retry and creates one resource",
		async (_, path, bodyOf) => {
			const { categoryId } = await stockedPet(0);
			const body = bodyOf(categoryId);
			const key = crypto.randomUUID();
			const first = await send("POST", path, body, { "idempotency-key": key });
			expect(first.status).toBe(201);
			const created = await first.json<{ id: number }>();
			const retry = await send("POST", path, body, { "idempotency-key": key });
			expect(retry.status).toBe(201);
			expect(retry.headers.get("idempotency-replayed")).toBe("true");
			expect(retry.headers.get("location")).toBe(first.headers.get("location"));
			expect(retry.headers.get("etag")).toBe(first.headers.get("etag"));
			expect(await retry.json()).toEqual(created);
			const events = (
				await collectPages<{ type: string }>(
					`/events?subject=${encodeURIComponent(`${path}/${created.id}`)}`,
				)
			).items;
			expect(events).toHaveLength(1);
			await expectError(
				await send("POST", path, { ...body, name: "Other" }, { "idempotency-key": key }),
				422,
				"idempotency_key_reused",
			);
		},
	);
});

describe("creates with and without a key, one after another", () => {
	it("each create its own resource, and each key replays its own", async () => {
		const { categoryId } = await stockedPet(0);
		const create = (name: string, key?: string) =>
			send("POST", "/pets", { name, categoryId }, key ? { "idempotency-key": key } : {});
		const [first, second] = [crypto.randomUUID(), crypto.randomUUID()];
		const created = [];
		for (const [name, key] of [
			["Keyed one", first],
			["Unkeyed one", undefined],
			["Keyed two", second],
			["Unkeyed two", undefined],
		] as const) {
			const response = await create(name, key);
			expect(response.status).toBe(201);
			created.push(await response.json<{ id: number; name: string }>());
		}
		expect(created.map(({ name }) => name)).toEqual([
			"Keyed one",
			"Unkeyed one",
			"Keyed two",
			"Unkeyed two",
		]);
		expect(new Set(created.map(({ id }) => id)).size).toBe(4);
		expect(await (await create("Keyed one", first)).json()).toEqual(created[0]);
		expect(await (await create("Keyed two", second)).json()).toEqual(created[2]);
	});
});
