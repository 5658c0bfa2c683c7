import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { servedDocument, testApp, token } from "./support/api";
import { requestOf } from "./support/curl";

/**
 * The state every sample runs against: the resources its examples name (id 1 of each), and no more than the
 * operation allows (a pet to delete has no open order; a category to delete has no pet).
 */
const fixture = (operationId: string) => [
	"DELETE FROM orders",
	"DELETE FROM inventory",
	"DELETE FROM pets",
	"DELETE FROM categories",
	"DELETE FROM webhooks",
	"INSERT INTO webhooks (id, url, events, secret, created_at) VALUES (1, 'https://shop.example.com/hooks/petstore', '[\"order.placed\"]', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', '2026-12-24T09:00:00.000Z')",
	"INSERT INTO categories (id, name, name_key) VALUES (1, 'Fixture', 'fixture')",
	...(operationId === "deleteCategory"
		? []
		: [
				"INSERT INTO pets (id, name, name_key, category_id) VALUES (1, 'Fixture', 'fixture', 1)",
				"INSERT INTO inventory (pet_id, quantity) VALUES (1, 10)",
			]),
	...(operationId === "deleteCategory" || operationId === "deletePet"
		? []
		: [
				"INSERT INTO orders (id, pet_id, quantity, ship_date) VALUES (1, 1, 1, '2026-12-24T09:00:00.000Z')",
			]),
];

let operations: { operationId: string; success: number; curl: string }[];
beforeAll(async () => {
	const { paths } = await servedDocument();
	operations = Object.values(paths).flatMap((methods) =>
		Object.values(methods).map((operation) => ({
			operationId: operation.operationId,
			success: Math.min(...Object.keys(operation.responses).map(Number)),
			curl: operation["x-codeSamples"].find((sample) => sample.label === "curl")?.source ?? "",
		})),
	);
});

describe("every operation's curl sample", () => {
	it("runs against the app that served it, with the reader's $API_TOKEN, and answers the documented success status", async () => {
		expect(operations.length).toBeGreaterThan(20);
		for (const { operationId, success, curl } of operations) {
			await env.DB.batch(fixture(operationId).map((sql) => env.DB.prepare(sql)));
			const response = await testApp().request(requestOf(curl, { API_TOKEN: token }));
			expect(response.status, `${operationId}: ${curl}`).toBe(success);
		}
	});
});
