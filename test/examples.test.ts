import { beforeAll, describe, expect, it } from "vitest";
import { anonymous, api, origin, servedDocument } from "./support/api";
import type { Operation, Parameter } from "./support/contract";
import { seedAsDev } from "./support/seed";

/**
 * Every operation, in the order a client meets them on a fresh seed: each resource is created, read and
 * changed before it is deleted, orders are placed while their pet is still for sale, and a category is
 * deleted once it is one without pets.
 */
const sensibleOrder = [
	"getHealth",
	"listCategories",
	"createCategory",
	"getCategoryById",
	"replaceCategory",
	"updateCategory",
	"listPets",
	"createPet",
	"getPetById",
	"replacePet",
	"listInventory",
	"getInventoryItem",
	"setInventory",
	"placeOrder",
	"listOrders",
	"getOrderById",
	"updateOrder",
	"cancelOrder",
	"updatePet",
	"deletePet",
	"deleteCategory",
	"createWebhook",
	"listWebhooks",
	"getWebhook",
	"updateWebhook",
	"rotateWebhookSecret",
	"replayWebhook",
	"listWebhookDeliveries",
	"deleteWebhook",
	"listEvents",
];

/** A parameter whose description says that its value comes from an earlier response, not from its example. */
const fromEarlierResponse = (parameter: Parameter) =>
	/an earlier response/.test(parameter.description ?? "");

/** The `Location` of every create so far, oldest first. */
const locations: string[] = [];

/** The `{name}` of the latest earlier `Location` that fits `template`. */
const fromLocation = (template: string, name: string) => {
	const pattern = new RegExp(
		`^${template.replace(`{${name}}`, "(\\d+)").replace(/\{\w+\}/g, "\\d+")}$`,
	);
	const match = locations
		.map((location) => pattern.exec(new URL(location, origin).pathname))
		.findLast(Boolean);
	expect(match, `no earlier Location fits ${template}`).toBeTruthy();
	return match?.[1] ?? "";
};

/**
 * The request an example-driven tool sends for an operation: every example as it stands in the document,
 * but for a value marked as coming from an earlier response, which is taken from there (an id) or left out
 * (an optional header).
 */
const exampleRequest = (method: string, template: string, operation: Operation) => {
	const parameters = operation.parameters ?? [];
	const sentValue = (parameter: Parameter) =>
		fromEarlierResponse(parameter)
			? fromLocation(template, parameter.name)
			: String(parameter.example);
	const sent = (location: Parameter["in"]) =>
		parameters.filter(
			(parameter) =>
				parameter.in === location &&
				parameter.example !== undefined &&
				(location === "path" || !fromEarlierResponse(parameter)),
		);
	const path = sent("path").reduce(
		(path, parameter) => path.replace(`{${parameter.name}}`, sentValue(parameter)),
		template,
	);
	const query = new URLSearchParams(
		sent("query").flatMap((parameter) =>
			[parameter.example].flat().map((value) => [parameter.name, `${value}`]),
		),
	);
	const headers = Object.fromEntries(
		sent("header").map((parameter) => [parameter.name, sentValue(parameter)]),
	);
	const body = operation.requestBody?.content["application/json"].example;
	return {
		path: query.size > 0 ? `${path}?${query}` : path,
		init: {
			method,
			headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
			body: body === undefined ? undefined : JSON.stringify(body),
		},
	};
};

let operations: { template: string; method: string; operation: Operation }[];
beforeAll(async () => {
	await seedAsDev();
	const { paths } = await servedDocument();
	operations = Object.entries(paths).flatMap(([template, methods]) =>
		Object.entries(methods).map(([method, operation]) => ({
			template,
			method: method.toUpperCase(),
			operation,
		})),
	);
});

describe("the document's request examples", () => {
	it("are ordered here for every operation of the document", () => {
		expect(operations.map(({ operation }) => operation.operationId).sort()).toEqual(
			[...sensibleOrder].sort(),
		);
	});

	it("mark only optional parameters, or ids a create answers, as values of an earlier response", () => {
		for (const { operation } of operations) {
			for (const parameter of (operation.parameters ?? []).filter(fromEarlierResponse)) {
				expect(
					parameter.in === "path" || !parameter.required,
					`${operation.operationId} ${parameter.name}`,
				).toBe(true);
			}
		}
	});

	it("each answer the documented success status, sent as they are in a sensible order on a fresh seed", async () => {
		for (const operationId of sensibleOrder) {
			const found = operations.find(({ operation }) => operation.operationId === operationId);
			if (!found) throw new Error(`${operationId} is not in the document`);
			const { template, method, operation } = found;
			const { path, init } = exampleRequest(method, template, operation);
			const send = (operation.security ?? []).length > 0 ? api : anonymous;
			const response = await send(path, init);
			const success = Math.min(...Object.keys(operation.responses).map(Number));
			expect(
				response.status,
				`${operationId}: ${method} ${path} ${init.body ?? ""} → ${await response.clone().text()}`,
			).toBe(success);
			const location = response.headers.get("location");
			if (location) locations.push(location);
		}
	});
});
