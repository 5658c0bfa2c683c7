import { describe, expect, it } from "vitest";
import { api, createCategory, expectError, send, servedDocument, testApp } from "./support/api";
import { spareDatabase } from "./support/d1";

describe("the uniform Error", () => {
	it("answers an unknown path with 404 not_found", async () => {
		await expectError(await api("/nowhere"), 404, "not_found");
		await expectError(await api("/pets/1/owner"), 404, "not_found");
	});

	it("answers a known path with a wrong method with 405 and Allow", async () => {
		const response = await api("/pets", { method: "DELETE" });
		await expectError(response, 405, "method_not_allowed");
		expect(response.headers.get("allow")?.split(", ").sort()).toEqual(["GET", "HEAD", "POST"]);
		const item = await api("/categories/1", { method: "POST" });
		await expectError(item, 405, "method_not_allowed");
		expect(item.headers.get("allow")?.split(", ").sort()).toEqual([
			"DELETE",
			"GET",
			"HEAD",
			"PATCH",
			"PUT",
		]);
	});

	it("answers a write without a body with a validation_error naming the missing fields", async () => {
		const error = await expectError(
			await api("/categories", { method: "POST" }),
			400,
			"validation_error",
		);
		expect(error.details?.map((detail) => detail.path)).toEqual(["body.name"]);
	});

	it("answers a query parameter an operation does not define with a validation_error naming it, on every operation", async () => {
		for (const [template, item] of Object.entries((await servedDocument()).paths)) {
			const path = template.replaceAll(/\{\w+\}/g, "1");
			for (const method of Object.keys(item)) {
				for (const name of ["colour", "status[]", "Status", "Limit"]) {
					const error = await expectError(
						await api(`${path}?limit=5&${encodeURIComponent(name)}=x`, {
							method: method.toUpperCase(),
						}),
						400,
						"validation_error",
					);
					expect(error.details).toContainEqual({
						path: `query.${name}`,
						message: "Unknown parameter.",
					});
				}
			}
		}
	});

	it("answers a parameter that takes one value, given twice, with a validation_error naming it", async () => {
		for (const [path, name] of [
			["/pets?limit=1&limit=2", "limit"],
			["/pets?categoryId=1&categoryId=2", "categoryId"],
			["/categories?limit=1&limit=2", "limit"],
			["/store/orders?complete=true&complete=false", "complete"],
		]) {
			const error = await expectError(await api(path), 400, "validation_error");
			expect(error.details?.map((detail) => detail.path)).toEqual([`query.${name}`]);
		}
	});

	it("answers malformed JSON with 400 malformed_json", async () => {
		for (const body of ["{", "nope", '{"name": "x"} trailing']) {
			const response = await api("/categories", {
				method: "POST",
				headers: { "content-type": "application/json" },
				body,
			});
			await expectError(response, 400, "malformed_json");
		}
	});

	it("answers a JSON body that is not an object with a validation_error", async () => {
		for (const body of [[], "Dog", 7, null]) {
			await expectError(await send("POST", "/categories", body), 400, "validation_error");
		}
	});

	it("treats an empty optional header as absent, as clients that send every header expect", async () => {
		const empty = { "x-d1-bookmark": "", "if-none-match": "", "if-match": "" };
		const category = await createCategory();
		for (const [method, path, body] of [
			["GET", "/pets"],
			["GET", `/categories/${category.id}`],
			["PATCH", `/categories/${category.id}`, { description: "Empty headers." }],
			["GET", "/health"],
		] as const) {
			const response =
				body === undefined
					? await api(path, { method, headers: empty })
					: await send(method, path, body, empty);
			expect(response.status, `${method} ${path}`).toBe(200);
		}
	});

	it("carries an X-Request-Id on every response", async () => {
		const ok = await api("/categories");
		const error = await api("/nowhere");
		expect(ok.headers.get("x-request-id")).toMatch(/^[\w-]+$/);
		expect(error.headers.get("x-request-id")).toMatch(/^[\w-]+$/);
		expect(ok.headers.get("x-request-id")).not.toBe(error.headers.get("x-request-id"));
	});

	it("answers an unexpected failure with 500 internal_error naming only the request id", async () => {
		// A database without the tables the code reads: the failure is the code's, not the platform's.
		const response = await testApp({ bindings: { DB: await spareDatabase() } }).api("/pets");
		const error = await expectError(response, 500, "internal_error");
		const id = response.headers.get("x-request-id");
		expect(error.message).toBe(`Unexpected error; quote request id ${id}.`);
	});
});
