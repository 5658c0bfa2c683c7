import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import {
	anonymous,
	api,
	createCategory,
	expectError,
	send,
	servedDocument,
	token,
} from "./support/api";

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

	it("lets a client read its own write by sending the bookmark back", async () => {
		const created = await createCategory();
		const write = await send("PATCH", `/categories/${created.id}`, {
			description: "fresh",
		});
		const after = write.headers.get("x-d1-bookmark") ?? "";
		const read = await anonymous(`/categories/${created.id}`, {
			headers: { "x-d1-bookmark": after },
		});
		expect(await read.json()).toMatchObject({ description: "fresh" });
		expect((read.headers.get("x-d1-bookmark") ?? "") >= after).toBe(true);
	});

	it("starts reads anywhere, writes at the primary, and a bookmarked request at its bookmark", async () => {
		const d1 = recordingD1();
		const app = createApp();
		const request = (path: string, init: RequestInit = {}) =>
			app.request(path, init, { ...env, DB: d1.binding });
		await request("/pets");
		await request("/categories", {
			method: "POST",
			headers: {
				authorization: `Bearer ${token}`,
				"content-type": "application/json",
			},
			body: JSON.stringify({ name: "Primary" }),
		});
		const given = "00000000-00000001-00000000-00000000000000000000000000000000";
		await request("/pets", { headers: { "x-d1-bookmark": given } });
		expect(d1.constraints).toEqual([
			"first-unconstrained",
			"first-primary",
			given,
		]);
	});

	it("rejects a malformed bookmark with a validation_error", async () => {
		const error = await expectError(
			await api("/pets", { headers: { "x-d1-bookmark": "not a bookmark" } }),
			400,
			"validation_error",
		);
		expect(error.details?.[0]?.path).toBe("header.X-D1-Bookmark");
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
				const success = Object.entries(operation.responses).filter(([status]) =>
					status.startsWith("2"),
				);
				for (const [, response] of success) {
					expect(response.headers).toHaveProperty("X-D1-Bookmark");
				}
			}
		}
	});
});
