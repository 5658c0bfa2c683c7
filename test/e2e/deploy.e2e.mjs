// What `npm run deploy` ships, short of shipping it: the migrations go first, and the bundle wrangler builds
// is minified, with a source map that names the sources (uploaded, since wrangler.toml says so). Under
// `wrangler dev` the same code is not minified (dev-loop.e2e.mjs reads a stack trace).
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectCopy, root, wrangler } from "../support/wrangler-dev.mjs";

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

/**
 * Cloudflare's API as far as `npm run deploy` may reach it before it deploys: it lists the Worker's secrets
 * (`secrets` here) and records every request it is sent.
 */
const cloudflareApi = async (secrets) => {
	const requests = [];
	const server = createServer((request, response) => {
		requests.push(`${request.method} ${request.url}`);
		const listing = /\/workers\/scripts\/petstore-api\/secrets$/.test(request.url ?? "");
		response.writeHead(listing ? 200 : 500, { "content-type": "application/json" });
		response.end(
			JSON.stringify({
				success: listing,
				errors: listing ? [] : [{ code: 10000, message: "not part of this test" }],
				messages: [],
				result: listing ? secrets.map((name) => ({ name, type: "secret_text" })) : null,
			}),
		);
	});
	await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
	return { requests, url: `http://127.0.0.1:${server.address().port}/client/v4`, server };
};

describe("npm run deploy, before it changes anything remote", () => {
	let copy;
	let wranglerToml;
	let placeholder;

	beforeAll(async () => {
		copy = await projectCopy("deploy-check");
		wranglerToml = join(copy, "wrangler.toml");
		placeholder = await readFile(wranglerToml, "utf8");
	});

	/** `npm run deploy` in the copy against a Cloudflare API that holds `secrets`: its exit code, output and requests. */
	const deploy = async (secrets) => {
		const api = await cloudflareApi(secrets);
		try {
			// Asynchronously: the API answers from this process.
			const npm = spawn("npm", ["run", "deploy"], {
				cwd: copy,
				env: {
					...process.env,
					CLOUDFLARE_API_BASE_URL: api.url,
					CLOUDFLARE_API_TOKEN: "test-token",
					CLOUDFLARE_ACCOUNT_ID: "0123456789abcdef0123456789abcdef",
					WRANGLER_SEND_METRICS: "false",
				},
			});
			let output = "";
			npm.stdout.on("data", (chunk) => {
				output += chunk;
			});
			npm.stderr.on("data", (chunk) => {
				output += chunk;
			});
			const status = await new Promise((resolve) => npm.on("close", resolve));
			return { status, output, requests: api.requests };
		} finally {
			api.server.close();
		}
	};

	afterAll(() => writeFile(wranglerToml, placeholder));

	it("stops at the placeholder database_id, naming the command that gives a real one, and asks nothing of the API", async () => {
		const { status, output, requests } = await deploy([]);
		expect(status).not.toBe(0);
		expect(output).toContain(
			"run `npx wrangler d1 create petstore` and put the database_id it prints",
		);
		expect(output).toContain("Nothing was deployed.");
		expect(requests).toEqual([]);
	});

	it("stops at each required secret not set, naming its command, having only listed the secrets", async () => {
		await writeFile(
			wranglerToml,
			placeholder.replace(
				"00000000-0000-0000-0000-000000000000",
				"5e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b",
			),
		);
		const { status, output, requests } = await deploy(["API_TOKEN"]);
		expect(status).not.toBe(0);
		for (const name of ["CURSOR_SECRET", "WEBHOOK_SECRET_KEY"]) {
			expect(output).toContain(
				`The secret ${name} is not set: run \`npx wrangler secret put ${name}\`.`,
			);
		}
		expect(output).not.toContain("The secret API_TOKEN");
		expect(requests.every((request) => request.startsWith("GET "))).toBe(true);
		expect(
			requests.some((request) => request.endsWith("/workers/scripts/petstore-api/secrets")),
		).toBe(true);
	});
});
