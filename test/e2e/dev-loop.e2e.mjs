// `npm run dev` as a developer lives with it, run as the README says in a copy of the project (its own local
// database, and edits no other test's `wrangler dev` sees): the banner names the port actually served; a
// database behind the code is answered 503, and said once; a stack trace names the source; an edit reloads and
// says what changed, with no bindings table; a type error shows beside wrangler; `npm run db:reset` leaves it
// serving the fresh database.
import { spawn, spawnSync } from "node:child_process";
import { appendFile, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectCopy } from "../support/wrangler-dev.mjs";

const port = 8961;
let copy;
const token = "petstore-dev-token";
let dev;
let output = "";

/** Waits until what `npm run dev` printed matches `pattern`; the match. */
const printed = async (pattern, timeoutMs = 120_000) => {
	for (const start = Date.now(); Date.now() - start < timeoutMs; ) {
		const match = pattern.exec(output);
		if (match) return match;
		await sleep(200);
	}
	throw new Error(`npm run dev never printed ${pattern}:\n${output}`);
};

/** Runs an npm script in the copy to completion; its output. */
const npm = (...args) => {
	const result = spawnSync("npm", ["run", ...args], { cwd: copy, encoding: "utf8" });
	expect(result.status, result.stderr).toBe(0);
	return result.stdout;
};

/** Runs `command` on the copy's local database through wrangler, as a developer would; wrangler's JSON. */
const sql = (command) => {
	const result = spawnSync(
		"wrangler",
		["d1", "execute", "DB", "--local", "--json", "--command", command],
		{ cwd: copy, encoding: "utf8" },
	);
	expect(result.status, result.stderr).toBe(0);
	return JSON.parse(result.stdout)[0].results;
};

const base = () => `http://localhost:${port}`;

/** Starts `npm run dev` in the copy, as the README says; once it has printed its banner. */
const startDev = async () => {
	output = "";
	dev = spawn("npm", ["run", "dev", "--", "--port", String(port), "--inspector-port", "8962"], {
		cwd: copy,
		detached: true,
	});
	dev.stdout.on("data", (chunk) => {
		output += chunk;
	});
	dev.stderr.on("data", (chunk) => {
		output += chunk;
	});
	await printed(/Petstore API {2}\S+/, 240_000);
};

/** Stops `npm run dev`, and waits until it has. */
const stopDev = async () => {
	if (dev?.exitCode === null) {
		const exited = new Promise((resolve) => dev.once("exit", resolve));
		process.kill(-dev.pid, "SIGTERM");
		await exited;
	}
};

beforeAll(async () => {
	copy = await projectCopy("dev-loop");
	await startDev();
}, 300_000);

afterAll(stopDev);

describe("npm run dev", () => {
	it("answers a database a migration behind the code 503, naming the command to run, and says so once", async () => {
		// Before any request has found the database as the code expects it.
		sql("ALTER TABLE webhooks DROP COLUMN retired_secrets");
		for (let request = 0; request < 2; request++) {
			const response = await fetch(`${base()}/pets/1`);
			expect(response.status).toBe(503);
			expect((await response.json()).message).toContain("`npm run db:setup`");
		}
		await printed(/\[wrangler:info\] GET \/pets\/1 503[\s\S]*GET \/pets\/1 503/);
		expect(output.split("lacks the schema this code reads")).toHaveLength(2);
		sql("ALTER TABLE webhooks ADD COLUMN retired_secrets text DEFAULT '[]' NOT NULL");
		expect((await fetch(`${base()}/pets/1`)).status).toBe(200);
	});

	it("prints the port and URL it actually serves, after wrangler's table of bindings and at most 16 lines more", async () => {
		const [, url] = await printed(/Petstore API {2}(\S+)/);
		const before = output.slice(0, output.indexOf("Petstore API")).split("\n");
		// A row per binding of wrangler.toml: what the Worker may reach, which a new binding adds to.
		const bindings = before.filter((line) => /^env\.[A-Z_]+ /.test(line));
		expect(bindings.length).toBeGreaterThan(0);
		expect(before.length - bindings.length).toBeLessThanOrEqual(16);
		expect(url).toBe(`http://localhost:${port}`);
		expect(output).toContain(`Dev token     ${token}`);
		expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: "ok" });
	});

	it("logs an unexpected error's stack with the source files and lines", async () => {
		const [{ id }] = sql(
			"INSERT INTO events (type, subject, created_at, data) VALUES ('pet.created', '/pets/1', '2027-01-01T00:00:00.000Z', 'not JSON') RETURNING id",
		);
		expect((await fetch(`${base()}/events?after=${id - 1}`)).status).toBe(500);
		const [stack] = await printed(/SyntaxError[^\n]*\n(\s+at [^\n]*\n)+/);
		expect(stack).toMatch(/\(file:\/\/\S*\/src\/\S+\.ts:\d+:\d+\)/);
		// The bundle wrangler serves is not minified.
		const tmp = join(copy, ".wrangler/tmp");
		for (const dir of (await readdir(tmp)).filter((name) => name.startsWith("dev-"))) {
			const bundle = await readFile(join(tmp, dir, "index.js"), "utf8");
			expect(bundle.split("\n").length).toBeGreaterThan(10_000);
		}
	});

	it("reloads on an edit, saying what changed, without reprinting the bindings table", async () => {
		const entry = join(copy, "src/index.ts");
		await appendFile(entry, "// edited by dev-loop.e2e.mjs\n");
		await printed(/Reloading local server: src\/index\.ts changed/);
		await printed(/Reloading[^\n]*\n[\s\S]*Local server updated and ready/);
		expect(output.split("has access to the following bindings")).toHaveLength(2);
		expect(output).not.toContain("Connection status updated");
	});

	it("shows the type checker's errors beside wrangler as they happen", async () => {
		await printed(/\[tsc\] .*Found 0 errors/, 240_000);
		const file = join(copy, "src/type-error.ts");
		await writeFile(file, 'export const count: number = "one";\n');
		await printed(/\[tsc\] src\/type-error\.ts\(1,14\): error TS2322/);
		await rm(file);
		await printed(/Found 1 error[\s\S]*\[tsc\] .*Found 0 errors/);
	}, 300_000);

	it("stops at start-up, naming the field, when a model has a field with no column, and answers nothing without it", async () => {
		const model = join(copy, "src/models/pet.ts");
		const before = await readFile(model, "utf8");
		await writeFile(
			model,
			before.replace(
				"const fields = {\n",
				"const fields = {\n\tnickname: z.string().optional(),\n",
			),
		);
		const [, error] = await printed(/(Pet: the model's field "nickname" has no column[^\n]*)/);
		expect(error).toContain("add it to src/db/schema.ts, then run npm run db:generate");
		// The Worker never started: nothing answers, and wrangler stops, to be run again once the column is there.
		const created = await fetch(`${base()}/pets`, {
			method: "POST",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
			body: JSON.stringify({ name: "Nicknamed", categoryId: 1, nickname: "N" }),
		}).then(
			(response) => response.status,
			() => "no answer",
		);
		expect(created).toBe("no answer");
		await writeFile(model, before);
		await stopDev();
		await startDev();
		expect((await fetch(`${base()}/health`)).status).toBe(200);
	}, 300_000);

	it("serves the fresh database after npm run db:reset, with no restart", async () => {
		const created = await fetch(`${base()}/pets`, {
			method: "POST",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
			body: JSON.stringify({ name: "Before the reset", categoryId: 1 }),
		});
		expect(created.status).toBe(201);
		npm("db:reset");
		// The POST's keep-alive connection, idle through the reset, may be closed just as it is reused: a GET is
		// then sent again, once, on a fresh connection, as a client may (RFC 9112 §9.3.1).
		const get = (path) => fetch(`${base()}${path}`).catch(() => fetch(`${base()}${path}`));
		const pets = await (await get("/pets?limit=100")).json();
		expect(pets.map(({ name }) => name)).toEqual([
			"Rex",
			"Bella",
			"Milo",
			"Luna",
			"Thumper",
			"Oreo",
		]);
		expect((await get("/health")).status).toBe(200);
	}, 180_000);
});
