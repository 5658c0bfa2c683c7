import { env } from "cloudflare:workers";
import { hc } from "hono/client";
import { describe, expect, expectTypeOf, it } from "vitest";
import { type AppType, createApp } from "../src/app";
import { origin, testApp, token, uniqueName } from "./support/api";

/** The typed client the README shows, talking to the Worker under test. */
const client = hc<AppType>(origin, {
	fetch: (input: RequestInfo | URL, init?: RequestInit) =>
		testApp().request(new Request(input, init)),
	headers: { authorization: `Bearer ${token}` },
});

describe("the typed client", () => {
	it("creates a category and a pet, stocks it and places an order", async () => {
		const category = await client.categories.$post({
			header: {},
			json: { name: uniqueName("Typed") },
		});
		expect(category.status).toBe(201);
		if (category.status !== 201) return;
		const { id: categoryId } = await category.json();

		const pet = await client.pets.$post({ header: {}, json: { name: "Typed Rex", categoryId } });
		if (pet.status !== 201) throw new Error(`createPet: ${pet.status}`);
		const { id: petId, status } = await pet.json();
		expect(status).toBe("available");

		const stock = await client.store.inventory[":petId"].$put({
			param: { petId: String(petId) },
			json: { quantity: 3 },
		});
		expect(stock.status).toBe(200);

		const order = await client.store.orders.$post({ header: {}, json: { petId, quantity: 2 } });
		if (order.status !== 201) throw new Error(`placeOrder: ${order.status}`);
		expect(await order.json()).toMatchObject({ petId, quantity: 2, complete: false });

		const item = await client.store.inventory[":petId"].$get({ param: { petId: String(petId) } });
		if (item.status !== 200) throw new Error(`getInventoryItem: ${item.status}`);
		expect((await item.json()).quantity).toBe(1);
	});

	it("rejects a wrong body or path at compile time", () => {
		// Checked by `npm run typecheck`.
		expectTypeOf(client.store).not.toHaveProperty("basket");
		type PlaceOrder = Parameters<typeof client.store.orders.$post>[0]["json"];
		expectTypeOf<PlaceOrder["petId"]>().toEqualTypeOf<number>();
		expectTypeOf<PlaceOrder["quantity"]>().toEqualTypeOf<number>();
		expectTypeOf<PlaceOrder>().toHaveProperty("shipDate");
		type CreatePet = Parameters<typeof client.pets.$post>[0]["json"];
		expectTypeOf<CreatePet["name"]>().toEqualTypeOf<string>();
		expectTypeOf<CreatePet["status"]>().toEqualTypeOf<
			"available" | "pending" | "sold" | undefined
		>();
		type CreateCategory = Parameters<typeof client.categories.$post>[0]["json"];
		expectTypeOf<CreateCategory["name"]>().toEqualTypeOf<string>();
		expectTypeOf<CreateCategory["description"]>().toEqualTypeOf<string | undefined>();
		// A pet needs its category.
		expectTypeOf<{ name: string }>().not.toExtend<CreatePet>();
	});

	it("ships declarations that hold every route the app serves: a new one fails here until `npm run client:build`", () => {
		const lagging = createApp()
			.openAPIRegistry.definitions.flatMap((definition) =>
				definition.type === "route" ? [definition.route] : [],
			)
			.map(({ method, path }) => ({ method, path: path.replace(/\{(\w+)\}/g, ":$1") }))
			// As the declarations write each: `"/pets/:petId": { $get: {`.
			.filter(
				({ method, path }) =>
					!env.CLIENT_DECLARATIONS.includes(`"${path}": {\n        $${method}: {`),
			);
		expect(lagging, "dist/client.d.ts lags the routes: run `npm run client:build`").toEqual([]);
	});
});
