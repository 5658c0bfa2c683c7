import { describe, expect, it } from "vitest";
import {
	api,
	collectPages,
	createCategory,
	createPet,
	expectError,
	type InventoryItem,
	send,
	stockedPet,
} from "./support/api";

describe("GET /store/inventory/{petId}", () => {
	it("starts a new pet at 0 with the pet's status", async () => {
		const pet = await createPet((await createCategory()).id);
		const response = await api(`/store/inventory/${pet.id}`);
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ petId: pet.id, quantity: 0, status: "available" });
	});

	it("follows the pet's status, which has one source of truth", async () => {
		const pet = await stockedPet(3);
		await send("PATCH", `/pets/${pet.id}`, { status: "sold" });
		expect(await (await api(`/store/inventory/${pet.id}`)).json()).toEqual({
			petId: pet.id,
			quantity: 3,
			status: "sold",
		});
	});

	it("answers 404 for a pet without an item and 400 for a malformed id", async () => {
		await expectError(await api("/store/inventory/987654321"), 404, "not_found");
		await expectError(await api("/store/inventory/abc"), 400, "validation_error");
	});
});

describe("PUT /store/inventory/{petId}", () => {
	it("sets the stock at both bounds", async () => {
		const pet = await createPet((await createCategory()).id);
		for (const quantity of [1_000_000, 0]) {
			const response = await send("PUT", `/store/inventory/${pet.id}`, { quantity });
			expect(response.status).toBe(200);
			expect(await response.json()).toEqual({ petId: pet.id, quantity, status: "available" });
		}
	});

	it.each([
		["a negative quantity", { quantity: -1 }],
		["a quantity over 1000000", { quantity: 1_000_001 }],
		["a fractional quantity", { quantity: 0.5 }],
		["a missing quantity", {}],
		["an unknown field", { quantity: 1, status: "sold" }],
	])("rejects %s and keeps the stock", async (_, body) => {
		const pet = await stockedPet(7);
		await expectError(
			await send("PUT", `/store/inventory/${pet.id}`, body),
			400,
			"validation_error",
		);
		expect((await (await api(`/store/inventory/${pet.id}`)).json<InventoryItem>()).quantity).toBe(
			7,
		);
	});

	it("answers 404 for a pet that does not exist", async () => {
		await expectError(
			await send("PUT", "/store/inventory/987654321", { quantity: 1 }),
			404,
			"not_found",
		);
	});
});

describe("GET /store/inventory", () => {
	it("lists every item in pet order, filtered by the pet's status, across pages", async () => {
		const available = await stockedPet(1);
		const sold = await stockedPet(2, { status: "sold" });
		const all = await collectPages<InventoryItem>("/store/inventory?limit=1");
		expect(all.pages.every((size) => size === 1)).toBe(true);
		expect(all.items).toEqual(
			expect.arrayContaining([
				{ petId: available.id, quantity: 1, status: "available" },
				{ petId: sold.id, quantity: 2, status: "sold" },
			]),
		);
		const ids = all.items.map((item) => item.petId);
		expect(ids).toEqual([...ids].sort((a, b) => a - b));
		const soldOnly = await collectPages<InventoryItem>("/store/inventory?status=sold");
		expect(soldOnly.items.every((item) => item.status === "sold")).toBe(true);
		expect(soldOnly.items.map((item) => item.petId)).toContain(sold.id);
	});

	it("merges several statuses into pages in pet order", async () => {
		const sold = await stockedPet(3, { status: "sold" });
		const pending = await stockedPet(4, { status: "pending" });
		const { items, pages } = await collectPages<InventoryItem>(
			"/store/inventory?status=pending&status=sold&limit=1",
		);
		expect(pages.every((size) => size === 1)).toBe(true);
		expect(items.every((item) => item.status !== "available")).toBe(true);
		const ids = items.map((item) => item.petId);
		expect(ids).toEqual([...ids].sort((a, b) => a - b));
		expect(ids).toEqual(expect.arrayContaining([sold.id, pending.id]));
	});

	it("rejects an unknown status", async () => {
		await expectError(await api("/store/inventory?status=lost"), 400, "validation_error");
	});
});
