import { describe, expect, it } from "vitest";
import { api, expectError, testApp } from "./support/api";

describe("GET /health", () => {
	it("answers ok while the database answers", async () => {
		const response = await api("/health");
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ status: "ok" });
	});

	it("answers 503 unavailable when the database is unreachable", async () => {
		const fail = () => {
			throw new Error("D1 is unreachable");
		};
		const session = { prepare: fail, batch: fail, getBookmark: () => null };
		const unreachable = {
			...session,
			withSession: () => session,
		} as unknown as D1Database;
		const response = await testApp({
			bindings: { DB: unreachable },
		}).anonymous("/health");
		await expectError(response, 503, "unavailable");
	});
});
