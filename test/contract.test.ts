import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import {
	anonymous,
	api,
	type Category,
	type Order,
	type Pet,
	send,
	servedDocument,
	uniqueName,
} from "./support/api";
import { operationFor } from "./support/contract";

type Step = [method: string, path: string, body?: unknown];

/**
 * One happy path and the main error paths of every operation, in an order where each builds on the last.
 * `anonymous()` checks each response's status, headers and body against the served document.
 */
const scenario = async (): Promise<Step[]> => {
	const category = await (
		await send("POST", "/categories", { name: uniqueName("Contract") })
	).json<Category>();
	const pet = await (
		await send("POST", "/pets", { name: "Contract", categoryId: category.id })
	).json<Pet>();
	await send("PUT", `/store/inventory/${pet.id}`, { quantity: 10 });
	const order = await (
		await send("POST", "/store/orders", { petId: pet.id, quantity: 1 })
	).json<Order>();
	const other = await (
		await send("POST", "/categories", { name: uniqueName("Spare") })
	).json<Category>();
	return [
		["GET", "/pets?limit=1"],
		["GET", "/pets?limit=0"],
		["POST", "/pets", { name: "Nova", categoryId: category.id }],
		["POST", "/pets", { name: "Nova", categoryId: 987654321 }],
		["POST", "/pets", { name: "" }],
		["GET", `/pets/${pet.id}`],
		["GET", "/pets/987654321"],
		["PUT", `/pets/${pet.id}`, { name: "Renamed", categoryId: category.id }],
		["PUT", "/pets/987654321", { name: "Ghost", categoryId: category.id }],
		["PATCH", `/pets/${pet.id}`, { name: "Patched" }],
		["PATCH", `/pets/${pet.id}`, { categoryId: 987654321 }],
		["GET", "/categories?limit=1"],
		["POST", "/categories", { name: uniqueName("Contract") }],
		["POST", "/categories", { name: category.name }],
		["GET", `/categories/${category.id}`],
		["GET", "/categories/987654321"],
		["PUT", `/categories/${other.id}`, { name: uniqueName("Other") }],
		["PATCH", `/categories/${other.id}`, { name: category.name }],
		["DELETE", `/categories/${category.id}`],
		["DELETE", `/categories/${other.id}`],
		["GET", "/store/orders?limit=1"],
		["POST", "/store/orders", { petId: pet.id, quantity: 1 }],
		["POST", "/store/orders", { petId: pet.id, quantity: 1000 }],
		["POST", "/store/orders", { petId: 987654321, quantity: 1 }],
		["GET", `/store/orders/${order.id}`],
		["GET", "/store/orders/987654321"],
		["PATCH", `/store/orders/${order.id}`, { complete: true }],
		["PATCH", `/store/orders/${order.id}`, { complete: false }],
		["DELETE", `/store/orders/${order.id}`],
		["DELETE", "/store/orders/987654321"],
		["GET", "/store/inventory?limit=1"],
		["GET", `/store/inventory/${pet.id}`],
		["GET", "/store/inventory/987654321"],
		["PUT", `/store/inventory/${pet.id}`, { quantity: 5 }],
		["PUT", `/store/inventory/${pet.id}`, { quantity: -5 }],
		["DELETE", `/pets/${pet.id}`],
		["DELETE", `/pets/${pet.id}`],
		["GET", "/health"],
		["GET", "/events?type=order.placed&limit=1"],
		["GET", "/events?type=nothing.happened"],
		["POST", "/webhooks", { url: "https://contract.example.com/hook", events: ["pet.created"] }],
		["POST", "/webhooks", { url: "ftp://contract.example.com/hook", events: ["pet.created"] }],
		["GET", "/webhooks?limit=1"],
		["GET", "/webhooks/1"],
		["GET", "/webhooks/987654321"],
		["PATCH", "/webhooks/1", { disabled: false }],
		["PATCH", "/webhooks/987654321", { disabled: false }],
		["POST", "/webhooks/1/rotate-secret"],
		["POST", "/webhooks/1/replay", { after: 0 }],
		["POST", "/webhooks/1/replay", {}],
		["GET", "/webhooks/1/deliveries?limit=1"],
		["GET", "/webhooks/987654321/deliveries"],
		["DELETE", "/webhooks/1"],
		["DELETE", "/webhooks/1"],
	];
};

describe("the contract", () => {
	it("holds for every operation of the document, on happy and error paths", async () => {
		const document = await servedDocument();
		const steps = await scenario();
		const exercised = new Set<string>();
		for (const [method, path, body] of steps) {
			const response =
				body === undefined ? await api(path, { method }) : await send(method, path, body);
			expect(response.status).toBeLessThan(500);
			const found = operationFor(document, method, new URL(path, "http://x").pathname);
			if (found) exercised.add(found.operation.operationId);
		}
		const all = Object.values(document.paths).flatMap((methods) =>
			Object.values(methods).map((operation) => operation.operationId),
		);
		expect([...exercised].sort()).toEqual(all.sort());
	});

	// `/mcp` is the transport of the operations as MCP tools (API.md §12), not an operation of its own; the
	// document's description points to it.
	it("documents exactly the routes the app registers, apart from /doc, /reference and /mcp", async () => {
		const document = await servedDocument();
		const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
			Object.keys(methods).map(
				(method) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ":$1")}`,
			),
		);
		const registered = createApp()
			.routes.filter((route) => route.method !== "ALL")
			.map((route) => `${route.method} ${route.path}`)
			.filter(
				(route) => !["GET /doc", "GET /reference", "GET /reference/*", "POST /mcp"].includes(route),
			);
		expect([...new Set(registered)].sort()).toEqual(documented.sort());
	});

	it("points to /mcp from the document's description", async () => {
		expect((await servedDocument()).info.description).toContain("`/mcp`");
	});

	it("serves the document without listing /doc itself", async () => {
		const response = await anonymous("/doc");
		expect(response.status).toBe(200);
		expect((await servedDocument()).paths["/doc"]).toBeUndefined();
	});
});
