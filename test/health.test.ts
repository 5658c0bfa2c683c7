import { describe, expect, it } from "vitest";
import { api, expectError, testApp } from "./support/api";
import { spareDatabase } from "./support/d1";

describe("GET /health", () => {
	it("answers ok while the database answers and holds the schema", async () => {
		const response = await api("/health");
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ status: "ok" });
	});

	it("answers 503 unavailable when the database is unreachable", async () => {
		const fail = () => {
			throw new Error("D1 is unreachable");
		};
		const session = { prepare: fail, batch: fail, getBookmark: () => null };
		const unreachable = { ...session, withSession: () => session } as unknown as D1Database;
		const response = await testApp({ bindings: { DB: unreachable } }).anonymous("/health");
		await expectError(response, 503, "unavailable");
	});

	it("answers 503 unavailable on a database that answers but was never migrated", async () => {
		const { anonymous } = testApp({ bindings: { DB: await spareDatabase() } });
		await expectError(await anonymous("/health"), 503, "unavailable");
		// Every resource fails on it too: the check says what they would.
		expect((await anonymous("/pets")).status).toBe(500);
	});

	it("answers ok once the migrations are applied, and 503 again when a column the code reads is gone", async () => {
		const db = await spareDatabase({ migrated: true });
		const { anonymous } = testApp({ bindings: { DB: db } });
		expect((await anonymous("/health")).status).toBe(200);
		await db.exec("ALTER TABLE webhooks DROP COLUMN retired_secrets");
		await expectError(await anonymous("/health"), 503, "unavailable");
	});
});
