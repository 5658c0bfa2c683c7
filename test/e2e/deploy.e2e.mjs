// What `npm run deploy` ships, short of shipping it: the migrations go first, and the bundle wrangler builds
// is minified, with a source map that names the sources (uploaded, since wrangler.toml says so). Under
// `wrangler dev` the same code is not minified (dev-loop.e2e.mjs reads a stack trace).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { root, wrangler } from "../support/wrangler-dev.mjs";

const { scripts } = JSON.parse(await readFile(join(root, "package.json"), "utf8"));

describe("npm run deploy", () => {
	it("applies the migrations to the remote database before it deploys the code, and re-keys names after", () => {
		const [migrate, deploy, ...rest] = scripts.deploy.split(" && ");
		expect(migrate).toBe("wrangler d1 migrations apply DB --remote");
		expect(deploy).toMatch(/^wrangler deploy\b/);
		// Once the code that folds names the new way runs, no old Worker can write an old key after the re-key.
		expect(rest).toEqual(["npm run db:rekey -- --remote"]);
	});

	it("deploys a minified bundle with its source map", async () => {
		const outdir = join(root, "test-results/deploy");
		const [, deploy] = scripts.deploy.split(" && ");
		const args = deploy.split(" ").slice(1);
		wrangler([...args, "--dry-run", "--outdir", outdir]);
		const bundle = await readFile(join(outdir, "index.js"), "utf8");
		// Unminified, the bundle has tens of thousands of lines.
		expect(bundle.split("\n").length).toBeLessThan(1000);
		const { sources } = JSON.parse(await readFile(join(outdir, "index.js.map"), "utf8"));
		expect(sources).toContainEqual(expect.stringMatching(/\/src\/app\.ts$/));
	});
});
