import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import {
	api,
	createCategory,
	nextLink,
	type Order,
	type Pet,
	placeOrder,
	stockedPet,
	testApp,
	uniqueName,
} from "./support/api";
import { spyOnD1, watchedD1 } from "./support/d1";
import { createWebhook, deliverAt, later, mockReceivers, sweepAt } from "./support/webhooks";

/** How many D1 calls the request made, and its status. */
const roundTrips = async (
	method: string,
	path: string,
	body?: unknown,
	headers: Record<string, string> = {},
) => {
	const d1 = watchedD1(env.DB);
	const app = testApp({ bindings: { DB: d1.binding } });
	const response =
		body === undefined
			? await app.api(path, { method, headers })
			: await app.send(method, path, body, headers);
	return { status: response.status, calls: d1.calls() };
};

let pet: Pet;
let order: Order;
let spareCategory: number;
beforeAll(async () => {
	pet = await stockedPet(100);
	order = await (await placeOrder({ petId: pet.id, quantity: 1 })).json<Order>();
	spareCategory = (await createCategory()).id;
});

type Case = [operation: string, method: string, path: () => string, body?: () => unknown];

// Paths and bodies are functions: the fixtures exist only once beforeAll has run.
const operations: Case[] = [
	["listPets", "GET", () => "/pets?status=available&name=rex"],
	["createPet", "POST", () => "/pets", () => ({ name: "Trip", categoryId: pet.categoryId })],
	["getPetById", "GET", () => `/pets/${pet.id}`],
	[
		"replacePet",
		"PUT",
		() => `/pets/${pet.id}`,
		() => ({ name: "Trip", categoryId: pet.categoryId }),
	],
	["updatePet", "PATCH", () => `/pets/${pet.id}`, () => ({ name: "Tripped" })],
	["listCategories", "GET", () => "/categories"],
	["createCategory", "POST", () => "/categories", () => ({ name: uniqueName("Trip") })],
	["getCategoryById", "GET", () => `/categories/${pet.categoryId}`],
	[
		"replaceCategory",
		"PUT",
		() => `/categories/${spareCategory}`,
		() => ({ name: uniqueName("Trip") }),
	],
	["updateCategory", "PATCH", () => `/categories/${spareCategory}`, () => ({ description: "x" })],
	["listOrders", "GET", () => "/store/orders?complete=false"],
	["placeOrder", "POST", () => "/store/orders", () => ({ petId: pet.id, quantity: 1 })],
	["getOrderById", "GET", () => `/store/orders/${order.id}`],
	[
		"updateOrder",
		"PATCH",
		() => `/store/orders/${order.id}`,
		() => ({ shipDate: "2027-01-01T00:00:00Z" }),
	],
	["cancelOrder", "DELETE", () => `/store/orders/${order.id}`],
	["listInventory", "GET", () => "/store/inventory"],
	["getInventoryItem", "GET", () => `/store/inventory/${pet.id}`],
	["setInventory", "PUT", () => `/store/inventory/${pet.id}`, () => ({ quantity: 50 })],
	["deleteCategory", "DELETE", () => `/categories/${spareCategory}`],
	["health", "GET", () => "/health"],
	["listEvents", "GET", () => "/events?type=pet.created&type=order.placed"],
	[
		"createWebhook",
		"POST",
		() => "/webhooks",
		() => ({ url: "https://shop.example.com/hook", events: ["pet.created"] }),
	],
	["listWebhooks", "GET", () => "/webhooks"],
	["getWebhook", "GET", () => "/webhooks/1"],
	[
		"updateWebhook",
		"PATCH",
		() => "/webhooks/1",
		() => ({ events: ["pet.created", "pet.updated"] }),
	],
	["rotateWebhookSecret", "POST", () => "/webhooks/1/rotate-secret"],
	["replayWebhook", "POST", () => "/webhooks/1/replay", () => ({ after: 0 })],
	["listWebhookDeliveries", "GET", () => "/webhooks/1/deliveries"],
	["deleteWebhook", "DELETE", () => "/webhooks/1"],
];

describe("one D1 round trip per request", () => {
	it.each(operations)("%s makes exactly one", async (_, method, path, body) => {
		const { status, calls } = await roundTrips(method, path(), body?.());
		expect(status).toBeLessThan(300);
		expect(calls).toBe(1);
	});

	it("makes one for a write that fails its precondition, and none for the document", async () => {
		expect(await roundTrips("POST", "/store/orders", { petId: pet.id, quantity: 1000 })).toEqual({
			status: 409,
			calls: 1,
		});
		expect(await roundTrips("GET", "/doc")).toEqual({ status: 200, calls: 0 });
	});

	it("makes one for an idempotent placement and for its replay", async () => {
		const key = { "idempotency-key": crypto.randomUUID() };
		const placement = { petId: pet.id, quantity: 1 };
		for (let attempt = 0; attempt < 2; attempt++) {
			expect(await roundTrips("POST", "/store/orders", placement, key)).toEqual({
				status: 201,
				calls: 1,
			});
		}
	});

	it("makes one for conditional requests", async () => {
		const etag = (await api(`/categories/${pet.categoryId}`)).headers.get("etag");
		const path = `/categories/${pet.categoryId}`;
		const ifNoneMatch = { "if-none-match": etag ?? "" };
		expect(await roundTrips("GET", path, undefined, ifNoneMatch)).toEqual({
			status: 304,
			calls: 1,
		});
		const ifMatch = { "if-match": etag ?? "" };
		const patch = { description: "conditional" };
		expect(await roundTrips("PATCH", path, patch, ifMatch)).toEqual({ status: 200, calls: 1 });
		expect(await roundTrips("PATCH", path, patch, ifMatch)).toEqual({ status: 412, calls: 1 });
	});

	it("makes one for a later page and for several statuses", async () => {
		const next = nextLink(await api("/pets?limit=1"));
		expect(next).toBeDefined();
		expect(await roundTrips("GET", next ?? "")).toEqual({ status: 200, calls: 1 });
		expect(await roundTrips("GET", "/pets?status=available&status=sold&name=rip")).toEqual({
			status: 200,
			calls: 1,
		});
		expect(await roundTrips("GET", "/store/inventory?status=pending&status=sold")).toEqual({
			status: 200,
			calls: 1,
		});
	});

	it("makes one to delete a pet", async () => {
		const doomed = await stockedPet(0);
		expect(await roundTrips("DELETE", `/pets/${doomed.id}`)).toEqual({ status: 204, calls: 1 });
	});
});

describe("a write's background work", () => {
	it("costs D1 one sweep of two round trips per consumer batch, however many writes and nudges it holds, and nothing per delivery", async () => {
		const receivers = mockReceivers();
		const webhooks = [
			await createWebhook(["category.created"]),
			await createWebhook(["category.created"]),
			await createWebhook(["category.created"]),
		];
		// Whatever earlier tests left in the outbox is delivered first.
		await sweepAt(later);
		for (const { id } of webhooks) await deliverAt(id, later);
		const before = webhooks.map(({ url }) => receivers.ids(url).length);
		const d1 = spyOnD1(env.DB);
		try {
			for (let i = 0; i < 10; i++) await createCategory();
			expect(d1.calls()).toBe(10);
			await sweepAt(later, 10);
			for (const { id } of webhooks) await deliverAt(id, later);
			expect(d1.calls()).toBe(12);
		} finally {
			d1.restore();
		}
		expect(webhooks.map(({ url }) => receivers.ids(url).length)).toEqual(
			before.map((count) => count + 10),
		);
	});
});
