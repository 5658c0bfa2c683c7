import { describe, expect, it } from "vitest";
import {
	api,
	createCategory,
	createPet,
	expectError,
	type Order,
	placeOrder,
	send,
	stockedPet,
	stockOf,
} from "./support/api";

const etagOf = async (path: string) => {
	const response = await api(path);
	expect(response.status).toBe(200);
	const etag = response.headers.get("etag");
	expect(etag).toMatch(/^"[^"]+"$/);
	return etag as string;
};

describe("ETag and If-None-Match", () => {
	it("gives single resources a strong ETag and answers a matching If-None-Match with 304", async () => {
		const pet = await createPet((await createCategory()).id);
		const etag = await etagOf(`/pets/${pet.id}`);
		const cached = await api(`/pets/${pet.id}`, { headers: { "if-none-match": etag } });
		expect(cached.status).toBe(304);
		expect(await cached.text()).toBe("");
		expect(cached.headers.get("etag")).toBe(etag);
		expect(cached.headers.get("x-request-id")).toBeTruthy();
		expect(cached.headers.get("deprecation")).toBe("@1795132800");

		const stale = await api(`/pets/${pet.id}`, { headers: { "if-none-match": '"stale"' } });
		expect(stale.status).toBe(200);
	});

	it("changes the ETag with every write, and sends the new one", async () => {
		const category = await createCategory();
		const path = `/categories/${category.id}`;
		const before = await etagOf(path);
		const patched = await send("PATCH", path, { description: "new" });
		const after = patched.headers.get("etag");
		expect(after).not.toBe(before);
		expect(await etagOf(path)).toBe(after);
	});

	it.each(["/categories/{category}", "/store/orders/{order}", "/store/inventory/{pet}"])(
		"answers If-None-Match on %s",
		async (template) => {
			const pet = await stockedPet(5);
			const order = await (await placeOrder({ petId: pet.id, quantity: 1 })).json<Order>();
			const path = template
				.replace("{category}", String(pet.categoryId))
				.replace("{order}", String(order.id))
				.replace("{pet}", String(pet.id));
			const etag = await etagOf(path);
			expect((await api(path, { headers: { "if-none-match": etag } })).status).toBe(304);
		},
	);
});

describe("If-Match on writes", () => {
	it("lets exactly one of two clients with the same ETag win", async () => {
		const pet = await createPet((await createCategory()).id);
		const path = `/pets/${pet.id}`;
		const etag = await etagOf(path);
		const [first, second] = await Promise.all([
			send("PATCH", path, { name: "Alice's" }, { "if-match": etag }),
			send("PATCH", path, { name: "Bob's" }, { "if-match": etag }),
		]);
		expect([first.status, second.status].sort()).toEqual([200, 412]);
		const loser = first.status === 412 ? first : second;
		const winner = first.status === 200 ? first : second;
		await expectError(loser, 412, "precondition_failed");
		const stored = await (await api(path)).json();
		expect(stored).toEqual(await winner.json());
	});

	it("accepts a list of ETags and *, and never a weak ETag", async () => {
		const pet = await createPet((await createCategory()).id);
		const path = `/pets/${pet.id}`;
		const etag = await etagOf(path);
		await expectError(
			await send("PATCH", path, { status: "sold" }, { "if-match": `W/${etag}` }),
			412,
			"precondition_failed",
		);
		const listed = await send("PATCH", path, { status: "sold" }, { "if-match": `"nope", ${etag}` });
		expect(listed.status).toBe(200);
		const any = await send("PATCH", path, { status: "pending" }, { "if-match": "*" });
		expect(any.status).toBe(200);
	});

	it("matches an If-Match that lists hundreds of ETags", async () => {
		const category = await createCategory();
		const path = `/categories/${category.id}`;
		const others = Array.from({ length: 300 }, (_, i) => `"${i + 1000}"`);
		await expectError(
			await send("PATCH", path, { description: "x" }, { "if-match": others.join(", ") }),
			412,
			"precondition_failed",
		);
		const listed = [...others, await etagOf(path)].join(", ");
		const response = await send("PATCH", path, { description: "y" }, { "if-match": listed });
		expect(response.status).toBe(200);
	});

	it("refuses a stale PUT, PATCH or DELETE with 412 and changes nothing", async () => {
		const category = await createCategory();
		const pet = await createPet(category.id);
		const stale = await etagOf(`/pets/${pet.id}`);
		await send("PATCH", `/pets/${pet.id}`, { status: "pending" });
		const current = await (await api(`/pets/${pet.id}`)).json();
		for (const response of [
			await send(
				"PUT",
				`/pets/${pet.id}`,
				{ name: "X", categoryId: category.id },
				{ "if-match": stale },
			),
			await send("PATCH", `/pets/${pet.id}`, { name: "Y" }, { "if-match": stale }),
			await api(`/pets/${pet.id}`, { method: "DELETE", headers: { "if-match": stale } }),
		]) {
			await expectError(response, 412, "precondition_failed");
		}
		expect(await (await api(`/pets/${pet.id}`)).json()).toEqual(current);
	});

	it("answers 404 rather than 412 for a resource that does not exist", async () => {
		await expectError(
			await api("/categories/987654321", { method: "DELETE", headers: { "if-match": '"1"' } }),
			404,
			"not_found",
		);
	});

	it("deletes with the current ETag", async () => {
		const category = await createCategory();
		const etag = await etagOf(`/categories/${category.id}`);
		const deleted = await api(`/categories/${category.id}`, {
			method: "DELETE",
			headers: { "if-match": etag },
		});
		expect(deleted.status).toBe(204);
	});

	it("ties an inventory item's ETag to its pet's status too", async () => {
		const pet = await stockedPet(5);
		const path = `/store/inventory/${pet.id}`;
		const etag = await etagOf(path);
		await send("PATCH", `/pets/${pet.id}`, { status: "sold" });
		await expectError(
			await send("PUT", path, { quantity: 9 }, { "if-match": etag }),
			412,
			"precondition_failed",
		);
		expect(await stockOf(pet.id)).toBe(5);
		const fresh = await etagOf(path);
		const updated = await send("PUT", path, { quantity: 9 }, { "if-match": fresh });
		expect(updated.status).toBe(200);
	});

	it("guards order changes and cancellation, keeping the stock on a stale cancel", async () => {
		const pet = await stockedPet(5);
		const order = await (await placeOrder({ petId: pet.id, quantity: 2 })).json<Order>();
		const path = `/store/orders/${order.id}`;
		const stale = await etagOf(path);
		await send("PATCH", path, { shipDate: "2027-01-01T00:00:00Z" });
		await expectError(
			await send("PATCH", path, { complete: true }, { "if-match": stale }),
			412,
			"precondition_failed",
		);
		await expectError(
			await api(path, { method: "DELETE", headers: { "if-match": stale } }),
			412,
			"precondition_failed",
		);
		expect(await stockOf(pet.id)).toBe(3);
	});
});
