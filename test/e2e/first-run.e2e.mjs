// What a newcomer's first commands print: `npm install`'s type generation prints no generated source, and
// `npm run dev` sets the local database up quietly, unless a step fails, which it then shows whole.
import { spawn, spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectCopy, root } from "../support/wrangler-dev.mjs";

describe("a first run", () => {
	it("generates the Env type without printing it", () => {
		const run = spawnSync("npm", ["run", "--silent", "cf-typegen"], {
			cwd: root,
			encoding: "utf8",
		});
		expect(run.status, run.stderr).toBe(0);
		expect(`${run.stdout}${run.stderr}`).not.toMatch(/interface|declare|namespace/);
	});

	it("shows a migration that fails, whole, and serves nothing", async () => {
		const copy = await projectCopy("first-run");
		await writeFile(join(copy, "drizzle/9999_broken.sql"), "CREATE TABLE broken (;\n");
		const dev = spawn("npm", ["run", "dev", "--", "--port", "8963"], { cwd: copy });
		let output = "";
		for (const stream of [dev.stdout, dev.stderr]) stream.on("data", (chunk) => (output += chunk));
		const code = await new Promise((resolve) => dev.on("close", resolve));
		expect(code).not.toBe(0);
		expect(output).toContain("9999_broken.sql");
		expect(output).toContain("SQLITE_ERROR");
		expect(output).toContain(
			"The local database's migrations failed: wrangler d1 migrations apply DB --local",
		);
		expect(output).not.toContain("Petstore API");
	}, 120_000);
});
