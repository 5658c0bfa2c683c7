import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { anonymous, api, expectError, send, servedDocument, testApp } from "./support/api";

const bookmark = /^[0-9a-f]+(-[0-9a-f]+){3}$/;

/** The real binding, recording how each request opened its session. */
const recordingD1 = () => {
	const constraints: (string | undefined)[] = [];
	const binding = new Proxy(env.DB, {
		get(target, key) {
			if (key === "withSession") {
				return (constraint?: string) => {
					constraints.push(constraint);
					return target.withSession(constraint);
				};
			}
			const value = Reflect.get(target, key, target);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
	return { binding, constraints };
};

describe("D1 sessions and bookmarks", () => {
	it("answers reads and writes with the session's bookmark", async () => {
		const write = await send("POST", "/categories", { name: "Bookmarked" });
		expect(write.headers.get("x-d1-bookmark")).toMatch(bookmark);
		const read = await anonymous("/categories");
		expect(read.headers.get("x-d1-bookmark")).toMatch(bookmark);
	});

	it("answers an error that reached the database with the bookmark too", async () => {
		const missing = await anonymous("/categories/987654321");
		expect(missing.status).toBe(404);
		expect(missing.headers.get("x-d1-bookmark")).toMatch(bookmark);
	});

	it("starts reads anywhere, writes at the primary, and a bookmarked request at its bookmark", async () => {
		const d1 = recordingD1();
		const { anonymous, send } = testApp({ bindings: { DB: d1.binding } });
		await anonymous("/pets");
		await send("POST", "/categories", { name: "Primary" });
		const given = "00000000-00000001-00000000-00000000000000000000000000000000";
		await anonymous("/pets", { headers: { "x-d1-bookmark": given } });
		expect(d1.constraints).toEqual(["first-unconstrained", "first-primary", given]);
	});

	it.each(["/pets", "/health"])(
		"rejects a malformed bookmark on %s with a validation_error",
		async (path) => {
			const error = await expectError(
				await api(path, { headers: { "x-d1-bookmark": "not a bookmark" } }),
				400,
				"validation_error",
			);
			expect(error.details).toEqual([
				{ path: "header.X-D1-Bookmark", message: "is not a D1 bookmark" },
			]);
		},
	);

	it("leaves paths that never reach the database to their own answers", async () => {
		const headers = { "x-d1-bookmark": "not a bookmark" };
		await expectError(await anonymous("/no-such-path", { headers }), 404, "not_found");
		const doc = await anonymous("/doc", { headers });
		expect(doc.status).toBe(200);
		expect(doc.headers.get("x-d1-bookmark")).toBeNull();
	});

	it("documents the bookmark on every operation", async () => {
		const doc = await servedDocument();
		for (const methods of Object.values(doc.paths)) {
			for (const operation of Object.values(methods) as {
				parameters?: { name: string; in: string }[];
				responses: Record<string, { headers?: Record<string, unknown> }>;
			}[]) {
				expect(operation.parameters).toContainEqual(
					expect.objectContaining({ name: "X-D1-Bookmark", in: "header" }),
				);
				for (const response of Object.values(operation.responses)) {
					expect(response.headers).toHaveProperty("X-D1-Bookmark");
				}
			}
		}
	});
});
