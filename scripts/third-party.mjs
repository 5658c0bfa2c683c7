// Installs test/third-party, the tools the project is checked with but never needs to run (client generators,
// OpenAPI linters, MCP clients, the Inspector and the conformance suite, a browser driver, the bench's chanfana
// template), from its own lock with `npm ci`: `npm run install:third-party`. `npm run test:e2e`, `npm run
// lint:openapi` and `npm run bench` run it first; it does nothing while test/third-party/node_modules holds what
// its package.json and lock name.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const dir = resolve(import.meta.dirname, "../test/third-party");
const stamp = join(dir, "node_modules/.installed");
const wanted = createHash("sha256")
	.update(readFileSync(join(dir, "package.json")))
	.update(readFileSync(join(dir, "package-lock.json")))
	.digest("hex");

if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== wanted) {
	console.error(
		"Installing test/third-party (npm ci), which the end-to-end tests and the bench use",
	);
	const { status } = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], {
		cwd: dir,
		stdio: "inherit",
		shell: process.platform === "win32",
	});
	if (status !== 0) process.exit(status ?? 1);
	writeFileSync(stamp, wanted);
}
