import { describe, expect, it } from "vitest";
import {
	anonymous,
	api,
	collectPages,
	createCategory,
	createPet,
	expectError,
	nextLink,
	type Order,
	type Pet,
	placeOrder,
	send,
	stockedPet,
	testNow,
} from "./support/api";
import { cronAt } from "./support/webhooks";

type Event = { id: number; type: string; createdAt: string; data: unknown };

/** The events of one resource, oldest first. */
const eventsOf = async (subject: string) =>
	(await collectPages<Event>(`/events?subject=${encodeURIComponent(subject)}`)).items;

const lastEvent = async (subject: string) => (await eventsOf(subject)).at(-1);

describe("every write records exactly its event", () => {
	it("records pets created, updated and deleted, with the pet as the API answered it", async () => {
		const category = await createCategory();
		const created = await createPet(category.id);
		const subject = `/pets/${created.id}`;
		expect(await eventsOf(subject)).toEqual([
			{
				id: expect.any(Number),
				type: "pet.created",
				createdAt: new Date(testNow).toISOString(),
				data: created,
			},
		]);
		const patched = await (await send("PATCH", subject, { status: "pending" })).json<Pet>();
		expect(await lastEvent(subject)).toMatchObject({ type: "pet.updated", data: patched });
		const replaced = await (
			await send("PUT", subject, { name: "Replaced", categoryId: category.id })
		).json<Pet>();
		expect(await lastEvent(subject)).toMatchObject({ type: "pet.updated", data: replaced });
		expect((await api(subject, { method: "DELETE" })).status).toBe(204);
		expect(await lastEvent(subject)).toMatchObject({
			type: "pet.deleted",
			data: { id: created.id },
		});
		expect(await eventsOf(subject)).toHaveLength(4);
	});

	it("records categories created, updated and deleted, without a description they lack", async () => {
		const created = await createCategory();
		const subject = `/categories/${created.id}`;
		expect(await lastEvent(subject)).toMatchObject({ type: "category.created", data: created });
		const updated = await (await send("PATCH", subject, { description: "Kind." })).json();
		expect(await lastEvent(subject)).toMatchObject({ type: "category.updated", data: updated });
		await api(subject, { method: "DELETE" });
		expect(await lastEvent(subject)).toMatchObject({
			type: "category.deleted",
			data: { id: created.id },
		});
	});

	it("records orders placed, updated, completed and cancelled, and the stock set", async () => {
		const pet = await stockedPet(10);
		expect(await lastEvent(`/store/inventory/${pet.id}`)).toMatchObject({
			type: "inventory.updated",
			data: { petId: pet.id, quantity: 10, status: "available" },
		});
		const order = await (await placeOrder({ petId: pet.id, quantity: 2 })).json<Order>();
		const subject = `/store/orders/${order.id}`;
		expect(await lastEvent(subject)).toMatchObject({ type: "order.placed", data: order });
		const moved = await (
			await send("PATCH", subject, { shipDate: "2027-02-01T00:00:00Z" })
		).json<Order>();
		expect(await lastEvent(subject)).toMatchObject({ type: "order.updated", data: moved });
		const completed = await (await send("PATCH", subject, { complete: true })).json<Order>();
		expect(await lastEvent(subject)).toMatchObject({ type: "order.completed", data: completed });
		// Completing it again changes nothing: the same order and ETag, and no second event.
		const etag = (await api(subject)).headers.get("etag");
		const again = await send("PATCH", subject, { complete: true });
		expect(await again.json()).toEqual(completed);
		expect(again.headers.get("etag")).toBe(etag);
		expect((await eventsOf(subject)).map((event) => event.type)).toEqual([
			"order.placed",
			"order.updated",
			"order.completed",
		]);
		const other = await (await placeOrder({ petId: pet.id, quantity: 1 })).json<Order>();
		await api(`/store/orders/${other.id}`, { method: "DELETE" });
		expect(await lastEvent(`/store/orders/${other.id}`)).toMatchObject({
			type: "order.cancelled",
			data: { id: other.id },
		});
	});

	it("records nothing for a refused write or an idempotent replay", async () => {
		const pet = await stockedPet(1);
		// The feed from the last event its stocking recorded: what this test's writes record, and nothing before.
		const [stocked] = (await eventsOf(`/store/inventory/${pet.id}`)).slice(-1);
		await placeOrder({ petId: pet.id, quantity: 5 });
		await send("POST", "/pets", { name: "Ghost", categoryId: 987654321 });
		await send("PATCH", `/pets/${pet.id}`, { name: "Stale" }, { "if-match": '"99"' });
		const key = crypto.randomUUID();
		await placeOrder({ petId: pet.id, quantity: 1 }, key);
		await placeOrder({ petId: pet.id, quantity: 1 }, key);
		const after = (await collectPages<Event>(`/events?after=${stocked.id}&limit=100`)).items;
		expect(after.map((event) => event.type)).toEqual(["order.placed", "inventory.updated"]);
	});

	it("records every stock change: placing, cancelling, and a status that moves the item", async () => {
		const pet = await stockedPet(10);
		const subject = `/store/inventory/${pet.id}`;
		const item = async () => (await api(subject)).json();
		const stockEvents = async () =>
			(await eventsOf(subject)).map(({ type, data }) => ({ type, data }));
		const recorded = [{ type: "inventory.updated", data: await item() }];
		const order = await (await placeOrder({ petId: pet.id, quantity: 3 })).json<Order>();
		recorded.push({ type: "inventory.updated", data: await item() });
		await api(`/store/orders/${order.id}`, { method: "DELETE" });
		recorded.push({ type: "inventory.updated", data: await item() });
		await send("PATCH", `/pets/${pet.id}`, { status: "pending" });
		recorded.push({ type: "inventory.updated", data: await item() });
		expect(await stockEvents()).toEqual(recorded);
		expect(recorded.map(({ data }) => data)).toEqual([
			{ petId: pet.id, quantity: 10, status: "available" },
			{ petId: pet.id, quantity: 7, status: "available" },
			{ petId: pet.id, quantity: 10, status: "available" },
			{ petId: pet.id, quantity: 10, status: "pending" },
		]);
		// A write that leaves the item as it was records no stock change.
		await send("PATCH", `/pets/${pet.id}`, { status: "pending", name: "Same" });
		await send("PUT", `/pets/${pet.id}`, {
			name: "Same again",
			categoryId: pet.categoryId,
			status: "pending",
		});
		expect(await stockEvents()).toEqual(recorded);
	});

	it("records the resource exactly as the write answered it", async () => {
		const category = await createCategory();
		const key = crypto.randomUUID();
		for (const response of [
			await send("POST", "/categories", { name: `Exact ${key}` }),
			await send("POST", "/pets", { name: "Exact", categoryId: category.id }),
			await send("PUT", `/categories/${category.id}`, {
				name: `Exact again ${key}`,
				description: "Described.",
			}),
		]) {
			const body = await response.json<{ id: number }>();
			const subject = new URL(
				response.headers.get("location") ?? `/categories/${body.id}`,
				"http://petstore.test",
			).pathname;
			expect((await lastEvent(subject))?.data).toEqual(body);
		}
	});
});

describe("GET /events", () => {
	it("pages in order, filtered by types, and resumes from the last page's cursor", async () => {
		const category = await createCategory();
		for (let i = 0; i < 3; i++) await createPet(category.id);
		const types = new Set(["pet.created", "pet.deleted"]);
		let next: string | undefined = "/events?type=pet.created&type=pet.deleted&limit=2";
		let lastPage = next;
		const seen: Event[] = [];
		while (next) {
			lastPage = next;
			const response = await anonymous(next);
			seen.push(...(await response.json<Event[]>()));
			next = nextLink(response);
		}
		expect(seen.every((event) => types.has(event.type))).toBe(true);
		const ids = seen.map((event) => event.id);
		expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
		// A client keeps the link to the last page it read; read again, it holds what came since.
		const newer = await createPet(category.id);
		const { items: again } = await collectPages<Event>(lastPage);
		expect(again.at(-1)).toMatchObject({ type: "pet.created", data: newer });
		expect(again.filter((event) => !ids.includes(event.id))).toHaveLength(1);
	});

	it("answers 400 for an unknown type or subject", async () => {
		expect((await anonymous("/events?type=pet.adopted")).status).toBe(400);
		expect((await anonymous("/events?subject=pets")).status).toBe(400);
	});
});

describe("the every-minute Cron Trigger", () => {
	it("keeps events for 30 days and deletes them after", async () => {
		const pet = await createPet((await createCategory()).id);
		const subject = `/pets/${pet.id}`;
		const days = (n: number) => n * 24 * 60 * 60 * 1000;
		await cronAt(testNow + days(30));
		expect(await eventsOf(subject)).toHaveLength(1);
		await cronAt(testNow + days(30) + 1);
		expect(await eventsOf(subject)).toHaveLength(0);
	});
});

describe("GET /events?after", () => {
	it("resumes after the event a receiver holds, by its id or its webhook-id, and pages from there", async () => {
		const category = await createCategory();
		const held = (await eventsOf(`/categories/${category.id}`))[0];
		const pets = [];
		for (let i = 0; i < 3; i++) pets.push(await createPet(category.id));
		for (const after of [String(held.id), `evt_${held.id}`]) {
			const { items, pages } = await collectPages<Event>(
				`/events?after=${after}&type=pet.created&limit=2`,
			);
			expect(items.map((event) => event.data)).toEqual(pets);
			expect(pages).toEqual([2, 1]);
		}
	});

	it("takes after=0 as the start of the feed, as replayWebhook does", async () => {
		const [first] = await (await anonymous("/events?limit=1")).json<Event[]>();
		for (const after of ["0", "evt_0"]) {
			const [resumed] = await (await anonymous(`/events?after=${after}&limit=1`)).json<Event[]>();
			expect(resumed).toEqual(first);
		}
	});

	it.each(["evt_", "evt_x", "-1", "1e3", "00"])(
		"refuses after=%s with a validation_error",
		async (after) => {
			await expectError(await anonymous(`/events?after=${after}`), 400, "validation_error");
		},
	);
});
