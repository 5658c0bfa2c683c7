// The README's MCP Inspector commands, run as it writes them from a developer's own shell: that shell's Node
// (not the one npm scripts put first on the PATH), npx answered yes, against the local API with the seed. Its curl
// examples are test/readme.test.ts's; `npm run dev` and `npm run db:reset` are dev-loop.e2e.mjs's.
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root, startWranglerDev } from "../support/wrangler-dev.mjs";

const readme = await readFile(join(root, "README.md"), "utf8");

/** The README's shell commands that start with `prefix`, their continuation lines joined. */
const commands = (prefix) =>
	[...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
		.flatMap(([, block]) => block.replace(/\\\n\s*/g, "").split("\n"))
		.filter((line) => line.startsWith(prefix));

/** The developer's PATH: without the project's node_modules/.bin, which only npm scripts and npx put first. */
const shellPath = process.env.PATH.split(delimiter)
	.filter((dir) => !dir.includes("node_modules"))
	.join(delimiter);

let server;

beforeAll(async () => {
	server = await startWranglerDev({
		port: 8963,
		envFile: ".dev.vars.example",
		// Without its comments, which wrangler would read as options.
		seed: (await readFile(join(root, "src/db/seed.sql"), "utf8")).replace(/^--.*$/gm, ""),
	});
});

afterAll(() => server?.stop());

describe("the README's MCP Inspector commands", () => {
	it("are there", () => {
		expect(commands("npx @modelcontextprotocol/inspector")).toHaveLength(2);
	});

	it.each(commands("npx @modelcontextprotocol/inspector"))(
		"%s runs as written and answers JSON",
		(command) => {
			const result = spawnSync(
				"sh",
				["-c", command.replaceAll("http://localhost:8787", server.base)],
				{
					cwd: root,
					encoding: "utf8",
					env: { ...process.env, PATH: shellPath, npm_config_yes: "true" },
					timeout: 240_000,
				},
			);
			expect(result.status, result.stderr).toBe(0);
			const answer = JSON.parse(result.stdout);
			expect(answer.isError ?? false).toBe(false);
		},
		240_000,
	);
});
