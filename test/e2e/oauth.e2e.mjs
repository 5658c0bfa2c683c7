// A hosted agent signs in to /mcp as the MCP TypeScript SDK's v2 client does, in both revisions, against
// `wrangler dev`: a tool that needs a scope answers 401, the client discovers the authorization server, registers
// and sends the person to the consent page, which headless Chromium fills in with an API key; the client trades the
// code for tokens and calls the tool; a scope the grant lacks answers 403, and the client signs in again for it
// (step-up); a token the server refuses is renewed with the refresh token; revoking the key stops the agent. A
// screenshot of the consent page lands in test-results/. (A client id metadata document must be on a public host,
// which this machine has none of: test/oauth.test.ts covers it.)
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
	Client,
	StreamableHTTPClientTransport,
	UnauthorizedError,
} from "@modelcontextprotocol/client";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root, startWranglerDev } from "../support/wrangler-dev.mjs";

const port = 8794;
const base = `http://127.0.0.1:${port}`;
const rootToken = "petstore-dev-token";
let server;
let browser;
const thirdParty = [];
const problems = [];

/** What the SDK asks of an app that signs a person in: it keeps what it is given, and is sent to a URL. */
class Agent {
	redirectUrl = "http://127.0.0.1:9999/callback";
	clientMetadata = {
		client_name: "Test agent",
		redirect_uris: [this.redirectUrl],
		grant_types: ["authorization_code", "refresh_token"],
		response_types: ["code"],
		token_endpoint_auth_method: "none",
	};
	state() {
		this.lastState = crypto.randomUUID();
		return this.lastState;
	}
	clientInformation() {
		return this.client;
	}
	saveClientInformation(client) {
		this.client = client;
	}
	tokens() {
		return this.saved;
	}
	saveTokens(tokens) {
		this.saved = tokens;
	}
	saveCodeVerifier(verifier) {
		this.verifier = verifier;
	}
	codeVerifier() {
		return this.verifier;
	}
	saveDiscoveryState(state) {
		this.discovery = state;
	}
	discoveryState() {
		return this.discovery;
	}
	redirectToAuthorization(url) {
		this.authorizationUrl = url;
	}
}

const mcpUrl = new URL(`${base}/mcp`);

/** A client of /mcp in the revision `versionNegotiation` asks for, that signs in through `agent`. */
const connect = async (agent, versionNegotiation) => {
	const client = new Client({ name: "oauth-e2e", version: "1.0.0" }, { versionNegotiation });
	await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: agent }));
	return client;
};

/** The person at the consent page: gives `credential`, allows, and follows the link back to the client. */
const consent = async (url, credential, name) => {
	const context = await browser.newContext();
	await context.route("**/*", (route) => {
		const target = new URL(route.request().url());
		if (target.hostname === "127.0.0.1" && target.port === String(port)) return route.continue();
		thirdParty.push(target.href);
		return route.abort();
	});
	const page = await context.newPage();
	page.on("console", (message) => {
		if (message.type() === "error") problems.push(message.text());
	});
	await page.addInitScript(() => {
		document.addEventListener("securitypolicyviolation", (event) => {
			console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
		});
	});
	await page.goto(url.href);
	const asked = await page.locator("li code").allInnerTexts();
	const text = await page.locator("body").textContent();
	await mkdir(join(root, "test-results"), { recursive: true });
	await page.screenshot({ path: join(root, `test-results/${name}.png`) });
	await page.fill("#credential", credential);
	await page.click('button[value="allow"]');
	await page.waitForSelector("a.button");
	const granted = await page.locator("li code").allInnerTexts();
	const back = new URL(await page.locator("a.button").getAttribute("href"));
	await context.close();
	return { asked, text, granted, back };
};

/** The person at the consent page refuses: where the browser is sent (the page's CSP must let it go there). */
const deny = async (url) => {
	const context = await browser.newContext();
	const page = await context.newPage();
	await page.goto(url.href);
	const [back] = await Promise.all([
		page.waitForRequest((request) => !request.url().startsWith(base)),
		page.click('button[value="deny"]'),
	]);
	await context.close();
	return new URL(back.url());
};

beforeAll(async () => {
	server = await startWranglerDev({ port, probe: "/doc", envFile: ".dev.vars.example" });
	browser = await chromium.launch({
		executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
		args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
	});
}, 180_000);

afterAll(async () => {
	await browser?.close();
	await server?.stop();
});

describe.each([
	["2025-11-25", { mode: "legacy" }],
	["2026-07-28", { mode: { pin: "2026-07-28" } }],
])("a hosted agent speaking %s", (revision, versionNegotiation) => {
	it("signs in with a person's key, calls within its scopes, steps up for another, renews its token, and stops when the key is revoked", async () => {
		const made = await fetch(`${base}/keys`, {
			method: "POST",
			headers: { authorization: `Bearer ${rootToken}`, "content-type": "application/json" },
			body: JSON.stringify({ name: "A person", scopes: ["orders:write", "pets:write"] }),
		});
		expect(made.status).toBe(201);
		const { id: keyId, secret } = await made.json();
		const asRoot = (method, path, body) =>
			fetch(`${base}${path}`, {
				method,
				headers: { authorization: `Bearer ${rootToken}`, "content-type": "application/json" },
				body: JSON.stringify(body),
			}).then((response) => response.json());
		const { id: categoryId } = await asRoot("POST", "/categories", { name: `Pets ${revision}` });
		const { id: petId } = await asRoot("POST", "/pets", { name: "Rex", categoryId });
		await asRoot("PUT", `/store/inventory/${petId}`, { quantity: 5 });
		const agent = new Agent();

		// No credential: the tools list, reads answer, a write is refused where the client signs in.
		const anonymous = await connect(agent, versionNegotiation);
		expect((await anonymous.listTools()).tools.map((tool) => tool.name)).toContain("placeOrder");
		const order = { name: "placeOrder", arguments: { body: { petId, quantity: 1 } } };
		await expect(anonymous.callTool(order)).rejects.toBeInstanceOf(UnauthorizedError);
		expect(agent.authorizationUrl.searchParams.get("scope")).toBe("orders:write");

		// A refusal sends the browser back to the client with access_denied.
		const refused = await deny(agent.authorizationUrl);
		expect(refused.origin).toBe("http://127.0.0.1:9999");
		expect(refused.searchParams.get("error")).toBe("access_denied");
		expect(refused.searchParams.get("state")).toBe(agent.lastState);

		const first = await consent(agent.authorizationUrl, secret, `consent-${revision}`);
		expect(first.text).toContain("Test agent");
		expect(first.text).toContain("127.0.0.1:9999");
		expect(first.asked).toEqual(["orders:write"]);
		expect(first.granted).toEqual(["orders:write"]);
		expect(first.back.searchParams.get("state")).toBe(agent.lastState);
		await new StreamableHTTPClientTransport(mcpUrl, { authProvider: agent }).finishAuth(
			first.back.searchParams,
		);
		const signedIn = await connect(agent, versionNegotiation);
		expect(signedIn.getNegotiatedProtocolVersion()).toBe(revision);
		const placed = await signedIn.callTool(order);
		expect(placed.isError).toBeFalsy();
		expect(placed.structuredContent).toMatchObject({ petId, quantity: 1, complete: false });

		// A scope the grant lacks: 403 insufficient_scope, and the client asks again, keeping what it had.
		const category = {
			name: "createCategory",
			arguments: { body: { name: `Signed in ${revision}` } },
		};
		await expect(signedIn.callTool(category)).rejects.toBeInstanceOf(UnauthorizedError);
		const stepUp = await consent(agent.authorizationUrl, secret, `consent-step-up-${revision}`);
		expect(stepUp.granted).toEqual(expect.arrayContaining(["pets:write"]));
		await new StreamableHTTPClientTransport(mcpUrl, { authProvider: agent }).finishAuth(
			stepUp.back.searchParams,
		);
		const created = await (await connect(agent, versionNegotiation)).callTool(category);
		expect(created.structuredContent).toMatchObject({ name: `Signed in ${revision}` });

		// An access token the server refuses: the client renews it with its refresh token, which rotates.
		const { refresh_token: used } = agent.tokens();
		agent.saveTokens({ ...agent.tokens(), access_token: "not-a-token" });
		const renewed = await (await connect(agent, versionNegotiation)).callTool(order);
		expect(renewed.isError).toBeFalsy();
		expect(agent.tokens().refresh_token).not.toBe(used);

		// The token is /mcp's alone.
		const rest = await fetch(`${base}/categories`, {
			method: "POST",
			headers: {
				authorization: `Bearer ${agent.tokens().access_token}`,
				"content-type": "application/json",
			},
			body: JSON.stringify({ name: "Through REST" }),
		});
		expect(rest.status).toBe(401);

		// Revoking the key that consented stops its agent within 10 s, its refresh token included.
		const revoked = await fetch(`${base}/keys/${keyId}`, {
			method: "DELETE",
			headers: { authorization: `Bearer ${rootToken}` },
		});
		expect(revoked.status).toBe(204);
		await sleep(10_500);
		const stock = await (await fetch(`${base}/store/inventory/${petId}`)).json();
		// A token presented is checked on every request, and its grant is renewed no more (invalid_grant).
		await expect(
			connect(agent, versionNegotiation).then((client) => client.callTool(order)),
		).rejects.toThrow(/Grant not found|invalid_grant/);
		expect(await (await fetch(`${base}/store/inventory/${petId}`)).json()).toEqual(stock);
		expect(problems).toEqual([]);
		expect(thirdParty).toEqual([]);
	}, 120_000);
});
