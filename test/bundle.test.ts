import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";

// vitest.config.ts applies wrangler.toml's [alias], so every test runs the modules the Worker bundle holds.
describe("the Worker bundle", () => {
	it("carries zod's English locale alone", () => {
		expect(Object.keys(z.locales)).toEqual(["en"]);
		expect(z.string().safeParse(7).error?.issues[0].message).toBe(
			"Invalid input: expected string, received number",
		);
	});
});
