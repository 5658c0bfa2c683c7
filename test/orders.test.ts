import { describe, expect, it } from "vitest";
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

describe("POST /store/orders", () => {
	it("places the order, takes the stock and answers 201 with a Location", async () => {
		const pet = await stockedPet(10);
		const response = await placeOrder({ petId: pet.id, quantity: 3 });
		expect(response.status).toBe(201);
		const order = await response.json<Order>();
		expect(order).toEqual({
			id: expect.any(Number),
			petId: pet.id,
			quantity: 3,
			shipDate: expect.any(String),
			complete: false,
		});
		expect(order.shipDate).toBe(new Date(testNow).toISOString());
		expect(response.headers.get("location")).toBe(`/store/orders/${order.id}`);
		expect(await stockOf(pet.id)).toBe(7);
		expect(await (await api(`/store/orders/${order.id}`)).json()).toEqual(order);
	});

	it("keeps a given ship date, normalised to UTC", async () => {
		const pet = await stockedPet(1);
		const response = await placeOrder({
			petId: pet.id,
			quantity: 1,
			shipDate: "2026-12-24T10:00:00+01:00",
		});
		expect((await response.json<Order>()).shipDate).toBe("2026-12-24T09:00:00.000Z");
	});

	it.each([
		["lowercase t and z", "2026-12-24t09:00:00z", "2026-12-24T09:00:00.000Z"],
		["a negative offset", "2026-12-24T04:30:00-04:30", "2026-12-24T09:00:00.000Z"],
		["an offset across midnight", "2026-12-25T01:00:00+16:00", "2026-12-24T09:00:00.000Z"],
		["one fractional digit", "2026-12-24T09:00:00.5Z", "2026-12-24T09:00:00.500Z"],
		[
			"nanoseconds, kept to the millisecond",
			"2026-12-24T09:00:00.123456789Z",
			"2026-12-24T09:00:00.123Z",
		],
		["a leap day", "2028-02-29T09:00:00Z", "2028-02-29T09:00:00.000Z"],
	])("accepts an RFC 3339 date-time with %s, answered in UTC", async (_, given, answered) => {
		const pet = await stockedPet(1);
		const response = await placeOrder({ petId: pet.id, quantity: 1, shipDate: given });
		expect(response.status).toBe(201);
		expect((await response.json<Order>()).shipDate).toBe(answered);
	});

	it.each([
		"2027-02-29T09:00:00Z",
		"2026-12-24T09:00:60Z",
		"2026-12-24T09:00:00+24:00",
		"2026-12-24 09:00:00Z",
		"2026-12-24T09:00:00",
		"+02026-12-24T09:00:00Z",
	])("refuses %s, which RFC 3339 or the calendar does not allow", async (shipDate) => {
		const pet = await stockedPet(1);
		const error = await expectError(
			await placeOrder({ petId: pet.id, quantity: 1, shipDate }),
			400,
			"validation_error",
		);
		expect(error.details?.map((detail) => detail.path)).toEqual(["body.shipDate"]);
		expect(await stockOf(pet.id)).toBe(1);
	});

	it("takes the last unit, then answers 409 insufficient_stock and changes nothing", async () => {
		const pet = await stockedPet(2);
		expect((await placeOrder({ petId: pet.id, quantity: 2 })).status).toBe(201);
		await expectError(await placeOrder({ petId: pet.id, quantity: 1 }), 409, "insufficient_stock");
		expect(await stockOf(pet.id)).toBe(0);
		const orders = await collectPages<Order>(`/store/orders?petId=${pet.id}`);
		expect(orders.items).toHaveLength(1);
	});

	it("answers 422 unknown_pet for a pet that does not exist", async () => {
		await expectError(await placeOrder({ petId: 987654321, quantity: 1 }), 422, "unknown_pet");
	});

	it("answers 409 pet_not_available for a pending or sold pet, and takes no stock", async () => {
		for (const status of ["pending", "sold"] as const) {
			const pet = await stockedPet(5, { status });
			await expectError(await placeOrder({ petId: pet.id, quantity: 1 }), 409, "pet_not_available");
			expect(await stockOf(pet.id)).toBe(5);
		}
	});

	it.each([
		["a quantity of 0", { quantity: 0 }, "body.quantity"],
		["a quantity over 1000", { quantity: 1001 }, "body.quantity"],
		["a fractional quantity", { quantity: 1.5 }, "body.quantity"],
		["a missing quantity", { quantity: undefined }, "body.quantity"],
		["a missing petId", { petId: undefined }, "body.petId"],
		["a petId past 2^53-1", { petId: 2 ** 53 }, "body.petId"],
		["a date that is not ISO 8601", { shipDate: "24/12/2026" }, "body.shipDate"],
		["a date without a time", { shipDate: "2026-12-24" }, "body.shipDate"],
		["a date that does not exist", { shipDate: "2026-02-30T10:00:00Z" }, "body.shipDate"],
		["an hour that does not exist", { shipDate: "2026-12-24T25:00:00Z" }, "body.shipDate"],
		["a date before year 1 in UTC", { shipDate: "0001-01-01T00:30:00+01:00" }, "body.shipDate"],
		["a date past year 9999 in UTC", { shipDate: "9999-12-31T23:30:00-01:00" }, "body.shipDate"],
		["a complete flag", { complete: true }, "body.complete"],
		["an unknown field", { coupon: "FREE" }, "body.coupon"],
	])("rejects %s", async (_, fields, path) => {
		const pet = await stockedPet(5);
		const error = await expectError(
			await placeOrder({ petId: pet.id, quantity: 1, ...fields }),
			400,
			"validation_error",
		);
		expect(error.details?.map((detail) => detail.path)).toContain(path);
		expect(await stockOf(pet.id)).toBe(5);
	});

	it("accepts the first and last instants of four-digit years", async () => {
		const pet = await stockedPet(2);
		for (const shipDate of ["0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z"]) {
			const response = await placeOrder({ petId: pet.id, quantity: 1, shipDate });
			expect((await response.json<Order>()).shipDate).toBe(shipDate);
		}
	});

	it("accepts a quantity of exactly 1000", async () => {
		const pet = await stockedPet(1000);
		expect((await placeOrder({ petId: pet.id, quantity: 1000 })).status).toBe(201);
		expect(await stockOf(pet.id)).toBe(0);
	});
});

describe("PATCH /store/orders/{orderId}", () => {
	const openOrder = async () => {
		const pet = await stockedPet(5);
		return (await placeOrder({ petId: pet.id, quantity: 2 })).json<Order>();
	};

	it("reschedules an open order", async () => {
		const order = await openOrder();
		const response = await send("PATCH", `/store/orders/${order.id}`, {
			shipDate: "2027-01-02T03:04:05Z",
		});
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ ...order, shipDate: "2027-01-02T03:04:05.000Z" });
	});

	it("completes an order without touching the stock", async () => {
		const order = await openOrder();
		const response = await send("PATCH", `/store/orders/${order.id}`, { complete: true });
		expect(await response.json()).toEqual({ ...order, complete: true });
		expect(await stockOf(order.petId)).toBe(3);
	});

	it("answers 409 order_complete to reopen or reschedule a complete order, and keeps it", async () => {
		const order = await openOrder();
		await send("PATCH", `/store/orders/${order.id}`, { complete: true });
		await expectError(
			await send("PATCH", `/store/orders/${order.id}`, { complete: false }),
			409,
			"order_complete",
		);
		await expectError(
			await send("PATCH", `/store/orders/${order.id}`, { shipDate: "2027-01-01T00:00:00Z" }),
			409,
			"order_complete",
		);
		expect(await (await api(`/store/orders/${order.id}`)).json()).toEqual({
			...order,
			complete: true,
		});
	});

	it("accepts completing a complete order again", async () => {
		const order = await openOrder();
		await send("PATCH", `/store/orders/${order.id}`, { complete: true });
		const again = await send("PATCH", `/store/orders/${order.id}`, { complete: true });
		expect(again.status).toBe(200);
	});

	it("rejects an empty patch, an unknown field, a bad date and a missing order", async () => {
		const order = await openOrder();
		for (const body of [{}, { quantity: 5 }, { shipDate: "tomorrow" }]) {
			await expectError(
				await send("PATCH", `/store/orders/${order.id}`, body),
				400,
				"validation_error",
			);
		}
		await expectError(
			await send("PATCH", "/store/orders/987654321", { complete: true }),
			404,
			"not_found",
		);
	});
});

describe("DELETE /store/orders/{orderId}", () => {
	it("cancels an open order and returns its quantity to stock", async () => {
		const pet = await stockedPet(5);
		const order = await (await placeOrder({ petId: pet.id, quantity: 4 })).json<Order>();
		expect(await stockOf(pet.id)).toBe(1);
		const response = await api(`/store/orders/${order.id}`, { method: "DELETE" });
		expect(response.status).toBe(204);
		expect(await stockOf(pet.id)).toBe(5);
		await expectError(await api(`/store/orders/${order.id}`), 404, "not_found");
		await expectError(
			await api(`/store/orders/${order.id}`, { method: "DELETE" }),
			404,
			"not_found",
		);
		expect(await stockOf(pet.id)).toBe(5);
	});

	it("answers 409 order_complete for a complete order and keeps the stock", async () => {
		const pet = await stockedPet(5);
		const order = await (await placeOrder({ petId: pet.id, quantity: 4 })).json<Order>();
		await send("PATCH", `/store/orders/${order.id}`, { complete: true });
		await expectError(
			await api(`/store/orders/${order.id}`, { method: "DELETE" }),
			409,
			"order_complete",
		);
		expect(await stockOf(pet.id)).toBe(1);
	});
});

describe("GET /store/orders", () => {
	it("filters by pet and completion, and pages", async () => {
		const pet = await stockedPet(10);
		const placed: Order[] = [];
		for (let i = 0; i < 5; i++) {
			placed.push(await (await placeOrder({ petId: pet.id, quantity: 1 })).json<Order>());
		}
		await send("PATCH", `/store/orders/${placed[1].id}`, { complete: true });
		const all = await collectPages<Order>(`/store/orders?petId=${pet.id}&limit=2`);
		expect(all.pages).toEqual([2, 2, 1]);
		expect(all.items.map((order) => order.id)).toEqual(placed.map((order) => order.id));
		const complete = await collectPages<Order>(`/store/orders?petId=${pet.id}&complete=true`);
		expect(complete.items.map((order) => order.id)).toEqual([placed[1].id]);
		const open = await collectPages<Order>(`/store/orders?petId=${pet.id}&complete=false`);
		expect(open.items).toHaveLength(4);
	});

	it("rejects malformed filters", async () => {
		await expectError(await api("/store/orders?complete=yes"), 400, "validation_error");
		await expectError(await api("/store/orders?petId=0"), 400, "validation_error");
	});
});

describe("DELETE /pets/{petId} with orders", () => {
	it("answers 409 pet_has_open_orders while an order is open", async () => {
		const pet = await stockedPet(5);
		const order = await (await placeOrder({ petId: pet.id, quantity: 1 })).json<Order>();
		await expectError(
			await api(`/pets/${pet.id}`, { method: "DELETE" }),
			409,
			"pet_has_open_orders",
		);
		expect((await api(`/pets/${pet.id}`)).status).toBe(200);
		await send("PATCH", `/store/orders/${order.id}`, { complete: true });
		expect((await api(`/pets/${pet.id}`, { method: "DELETE" })).status).toBe(204);
		expect(await (await api(`/store/orders/${order.id}`)).json()).toEqual({
			...order,
			complete: true,
		});
	});
});
