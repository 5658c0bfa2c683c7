// The MCP conformance suite (`@modelcontextprotocol/conformance`), the protocol's own tests, against `npm run dev`
// as a developer runs it (in a copy of the project, with its own local database): the server scenarios that apply
// to a stateless server of tools, every check of them but those listed below with why.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectCopy } from "../support/wrangler-dev.mjs";
import { bin } from "../third-party/index.mjs";

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

/**
 * The checks of those scenarios that cannot apply here, and why: each needs the suite's own diagnostic tools, or
 * resources or prompts, which an API's tools server does not have. Every other check must pass.
 */
const notApplicable = {
	"sep-2575-server-rejects-undeclared-capability":
		"needs the suite's tool test_missing_capability (a tool relying on a client capability); ours rely on none",
	"sep-2575-missing-capability-http-400": "the same tool's -32021 answer",
	"sep-2575-http-server-no-independent-requests-on-stream":
		"needs the suite's tool test_streaming_elicitation; ours never elicit",
	"sep-2575-server-no-log-without-loglevel":
		"needs the suite's tool test_logging_tool; the server declares no logging",
	"sep-2549-prompts-list-caching-hints": "the server has no prompts (prompts/list is -32601)",
	"sep-2549-resources-list-caching-hints": "the server has no resources (resources/list is -32601)",
	"sep-2549-resources-templates-list-caching-hints":
		"the server has no resources (resources/templates/list is -32601)",
};

/** The checks one scenario ran against the server, from the suite's own record of them. */
const checksOf = (scenario) => {
	const output = join(copy, "conformance-results", scenario);
	spawnSync(
		bin("conformance"),
		["server", "--url", `http://127.0.0.1:${port}/mcp`, "--scenario", scenario, "-o", output],
		{ cwd: copy, encoding: "utf8" },
	);
	const [run] = readdirSync(output);
	return JSON.parse(readFileSync(join(output, run, "checks.json"), "utf8"));
};

describe("the MCP conformance suite", () => {
	it.each([
		"server-initialize",
		"ping",
		"tools-list",
		"dns-rebinding-protection",
		"server-stateless",
		"http-header-validation",
		"caching",
	])("passes every check of %s that applies", (scenario) => {
		const checks = checksOf(scenario);
		expect(checks.length).toBeGreaterThan(0);
		const failed = checks
			.filter(({ status }) => status === "FAILURE" || status === "WARNING")
			.filter(({ id }) => !Object.hasOwn(notApplicable, id));
		expect(failed, JSON.stringify(failed, null, 2)).toEqual([]);
		// A check listed as not applicable is one the suite could not exercise, never one that failed on its merits.
		for (const check of checks.filter(({ id }) => Object.hasOwn(notApplicable, id))) {
			expect(JSON.stringify(check)).toMatch(/Not testable|-32601/);
		}
	});
});
