// The MCP conformance suite (`@modelcontextprotocol/conformance`), the protocol's own tests, against `npm run dev`
// as a developer runs it (in a copy of the project, with its own local database): the server scenarios that apply
// to a stateless server of tools.
import { spawn, spawnSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectCopy } from "../support/wrangler-dev.mjs";

const port = 8964;
let copy;
let dev;

beforeAll(async () => {
	copy = await projectCopy("conformance");
	dev = spawn("npm", ["run", "dev", "--", "--port", String(port), "--inspector-port", "8965"], {
		cwd: copy,
		detached: true,
		stdio: "ignore",
	});
	for (const start = Date.now(); Date.now() - start < 180_000; await sleep(500)) {
		const ready = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
		if (ready?.ok) return;
	}
	throw new Error("npm run dev never served /health");
}, 240_000);

afterAll(async () => {
	if (dev?.exitCode === null) {
		const exited = new Promise((resolve) => dev.once("exit", resolve));
		process.kill(-dev.pid, "SIGTERM");
		await exited;
	}
});

describe("the MCP conformance suite", () => {
	it.each(["server-initialize", "ping", "tools-list", "dns-rebinding-protection"])(
		"passes %s",
		(scenario) => {
			const run = spawnSync(
				"conformance",
				["server", "--url", `http://127.0.0.1:${port}/mcp`, "--scenario", scenario],
				{ cwd: copy, encoding: "utf8" },
			);
			expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
		},
	);
});
