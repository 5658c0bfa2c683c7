// Each storage's migrations are the ones drizzle-kit writes from its tables (the D1 database's and each webhook's
// Durable Object's): a table changed without its migration fails here, not on a deployed database or object.
import { spawnSync } from "node:child_process";
import { cp, mkdir, rm, symlink } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { root } from "../support/wrangler-dev.mjs";

const copy = join(root, "test-results/migrations");
const configs = ["drizzle.config.ts", "drizzle-endpoint.config.ts"];

beforeAll(async () => {
	await rm(copy, { recursive: true, force: true });
	await mkdir(copy, { recursive: true });
	for (const path of ["src", "drizzle", "package.json", "tsconfig.json", ...configs]) {
		await cp(join(root, path), join(copy, path), { recursive: true });
	}
	await symlink(join(root, "node_modules"), join(copy, "node_modules"));
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
