import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { expectError, testApp } from "./support/api";
import { spareDatabase } from "./support/d1";

/** A database a migration behind the code: as if the one that adds a column had been generated, never applied. */
const behind = async () => {
	const db = await spareDatabase({ migrated: true });
	await db.exec("ALTER TABLE webhooks DROP COLUMN retired_secrets");
	return db;
};

/** Local development as .dev.vars.example sets it, over a database a migration behind the code. */
const local = async () => testApp({ bindings: { DB: await behind(), LOCAL_DEVELOPMENT: "true" } });

describe("under local development, a database behind the code", () => {
	it("is never served as data: every request that reads or writes answers 503 naming the command, and the log says so once", async () => {
		const log = vi.spyOn(console, "error").mockImplementation(() => {});
		const { request } = await local();
		for (const [method, path] of [
			["GET", "/pets"],
			["GET", "/pets/1"],
			["GET", "/events"],
			["POST", "/categories"],
			["GET", "/health"],
		]) {
			const body = await expectError(await request(path, { method }), 503, "unavailable");
			expect(body.message).toContain("`npm run db:setup`");
		}
		expect(log).toHaveBeenCalledOnce();
		expect(JSON.parse(String(log.mock.calls[0][0]))).toMatchObject({
			part: "d1",
			error: expect.stringContaining("`npm run db:setup`"),
		});
		// The document and the reference page read no data.
		expect((await request("/doc")).status).toBe(200);
	});

	it("is served once the migration is applied, with no restart", async () => {
		vi.spyOn(console, "error").mockImplementation(() => {});
		const { request } = await local();
		expect((await request("/pets")).status).toBe(503);
		await env.EMPTY_DB.exec(
			"ALTER TABLE webhooks ADD COLUMN retired_secrets text DEFAULT '[]' NOT NULL",
		);
		expect((await request("/pets")).status).toBe(200);
	});

	it("is not checked for outside local development, where `npm run deploy` migrates before the code", async () => {
		const { request } = testApp({ bindings: { DB: await behind() } });
		expect((await request("/pets")).status).toBe(200);
	});
});

describe("under local development, an unexpected error", () => {
	it("is logged with its stack on lines of its own, which wrangler dev maps to the source", async () => {
		const log = vi.spyOn(console, "error").mockImplementation(() => {});
		// A row no write stores, which the files sharing this database must not meet: gone once read.
		const { results } = await env.DB.prepare(
			"INSERT INTO events (type, subject, created_at, data) VALUES ('pet.created', '/pets/1', '2027-01-01T00:00:00.000Z', 'not JSON') RETURNING id",
		).all<{ id: number }>();
		const { request } = testApp({ bindings: { LOCAL_DEVELOPMENT: "true" } });
		const response = await request(`/events?after=${results[0].id - 1}`);
		await env.DB.prepare("DELETE FROM events WHERE id = ?").bind(results[0].id).run();
		await expectError(response, 500, "internal_error");
		const [fields, stack] = log.mock.calls[0].map(String);
		expect(JSON.parse(fields)).toEqual({
			level: "error",
			requestId: response.headers.get("x-request-id"),
		});
		expect(stack).toMatch(/^\nSyntaxError: .*\n {4}at /);
	});
});
