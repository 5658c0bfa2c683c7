import { env } from "cloudflare:workers";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
	api,
	createCategory,
	nextLink,
	type Pet,
	servedDocument,
	stockedPet,
	testApp,
} from "./support/api";
import { spyOnD1, watchedD1 } from "./support/d1";
import { seedAsDev } from "./support/seed";
import {
	exampleRequest,
	locations,
	needsCredential,
	successOf,
	walkthrough,
} from "./support/walkthrough";
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
beforeAll(seedAsDev);

/** Every operation of the document, in a sensible order on a fresh seed: a test each, which fails on its own. */
const steps = walkthrough(await servedDocument()).map(
	(step) => [step.operation.operationId, step] as const,
);

describe("one D1 round trip for every operation of the document, sent as its examples are in a sensible order on a fresh seed", () => {
	const { keep, idFor } = locations();
	it.each(steps)("%s", async (operation, step) => {
		const d1 = watchedD1(env.DB);
		const app = testApp({ bindings: { DB: d1.binding } });
		const { path, init } = exampleRequest(step, idFor);
		const response = await (needsCredential(step) ? app.api : app.anonymous)(path, init);
		keep(response);
		expect(response.status, operation).toBe(successOf(step));
		// Revoking a key reads its webhooks first: the state each one's `webhook.disabled` carries is its
		// endpoint's, asked before the batch that revokes the key and disables them with their events.
		expect(d1.calls(), operation).toBe(operation === "revokeKey" ? 2 : 1);
	});
});

describe("one D1 round trip per request", () => {
	// Each test's own pet: none depends on what another did to one.
	beforeEach(async () => {
		pet = await stockedPet(100);
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
