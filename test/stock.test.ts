import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { collectPages, type Order, placeOrder, stockedPet, stockOf } from "./support/api";

// A correctness test, not a timed one: 200 requests on a shared 2-core machine may take longer than the default.
describe("stock under concurrent placements", () => {
	it("never oversells: 200 concurrent orders against a stock of 50", async () => {
		const stock = 50;
		const pet = await stockedPet(stock);
		const quantities = Array.from({ length: 200 }, (_, i) => (i % 4) + 1);
		const responses = await Promise.all(
			quantities.map((quantity) => placeOrder({ petId: pet.id, quantity })),
		);
		const results = await Promise.all(
			responses.map(async (response, i) => ({
				status: response.status,
				quantity: quantities[i],
				body: await response.json<Order & { code?: string }>(),
			})),
		);

		expect(results.filter((result) => result.status >= 500)).toEqual([]);
		const accepted = results.filter((result) => result.status === 201);
		const rejected = results.filter((result) => result.status !== 201);
		expect(
			rejected.every(
				(result) => result.status === 409 && result.body.code === "insufficient_stock",
			),
		).toBe(true);

		const taken = accepted.reduce((sum, result) => sum + result.quantity, 0);
		const remaining = await stockOf(pet.id);
		expect(remaining).toBeGreaterThanOrEqual(0);
		expect(remaining).toBe(stock - taken);
		expect(remaining).toBeLessThan(4);

		const stored = await collectPages<Order>(`/store/orders?petId=${pet.id}&limit=100`);
		expect(stored.items.map((order) => order.id).sort()).toEqual(
			accepted.map((result) => result.body.id).sort(),
		);
		const { total } = (await env.DB.prepare(
			"SELECT sum(quantity) AS total FROM orders WHERE pet_id = ?",
		)
			.bind(pet.id)
			.first<{ total: number }>()) ?? { total: 0 };
		expect(total).toBe(taken);
	}, 30_000);
});
