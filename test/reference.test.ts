import { describe, expect, it } from "vitest";
import { anonymous, expectError } from "./support/api";

describe("GET /reference", () => {
	it("serves the page, loading only scripts of its own origin under a strict CSP", async () => {
		const response = await anonymous("/reference");
		expect(response.status).toBe(200);
		expect(response.headers.get("content-type")).toMatch(/^text\/html/);
		const csp = response.headers.get("content-security-policy") ?? "";
		expect(csp).toContain("default-src 'self'");
		expect(csp).toContain("frame-ancestors 'none'");
		expect(csp).not.toContain("script-src");
		expect(csp).not.toMatch(/unsafe-eval|https?:/);
		const html = await response.text();
		const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map(([, src]) => src);
		expect(scripts).toEqual(["/reference/app.js", "/reference/scalar.js"]);
		expect(html).not.toMatch(/<script>|<style|https?:\/\/(?!www\.w3)/);
	});

	it("serves its script from the Worker's static assets", async () => {
		const response = await anonymous("/reference/app.js");
		expect(response.status).toBe(200);
		expect(response.headers.get("content-type")).toMatch(/javascript/);
		expect(await response.text()).toContain("createApiReference");
	});

	it("names an icon it serves, so the browser asks for no /favicon.ico", async () => {
		const html = await (await anonymous("/reference")).text();
		const icon = /<link rel="icon" href="([^"]+)"/.exec(html)?.[1];
		expect(icon).toBe("/reference/favicon.svg");
		const response = await anonymous(icon ?? "");
		expect(response.status).toBe(200);
		expect(response.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
	});

	it("answers a missing file with the uniform 404", async () => {
		await expectError(await anonymous("/reference/missing.js"), 404, "not_found");
	});

	it("keeps the API's own CSP on API responses", async () => {
		const response = await anonymous("/pets");
		expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
	});
});
