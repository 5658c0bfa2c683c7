// Each storage's migrations are the ones drizzle-kit writes from its tables (the D1 database's and each webhook's
// Durable Object's): a table changed without its migration fails here, not on a deployed database or object.
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { projectCopy } from "../support/wrangler-dev.mjs";

let copy;
const configs = ["drizzle.config.ts", "drizzle-endpoint.config.ts"];

beforeAll(async () => {
	copy = await projectCopy("migrations", [
		"src",
		"drizzle",
		"package.json",
		"tsconfig.json",
		...configs,
	]);
});

describe("the migrations", () => {
	it.each(configs)("of %s are all its schema needs", (config) => {
		const result = spawnSync("drizzle-kit", ["generate", "--config", config], {
			cwd: copy,
			encoding: "utf8",
		});
		expect(result.status, result.stderr).toBe(0);
		expect(result.stdout).toContain("No schema changes");
	});
});
