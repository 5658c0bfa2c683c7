// A hosted agent signs in to /mcp as the MCP TypeScript SDK's v2 client does, in both revisions, against
// `wrangler dev`: a tool that needs a scope answers 401, the client discovers the authorization server, registers
// and sends the person to the consent page, which headless Chromium fills in with an API key; Allow sends the browser
// straight back to the client's local callback (a server on 127.0.0.1 here), which receives the code with no further
// click; the client trades the code for tokens and calls the tool; a scope the grant lacks answers 403, and the client
// signs in again for it (step-up), keeping what it held; a token the server refuses is renewed with the refresh
// token; revoking the key stops the agent. A screenshot of the consent page lands in test-results/. (A client id
// metadata document must be on a public host, which this machine has none of: test/oauth.test.ts covers it.)
import { once } from "node:events";
import { mkdir } from "node:fs/promises";
import { createServer } from "node:http";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
	Client,
	StreamableHTTPClientTransport,
	UnauthorizedError,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root, startWranglerDev } from "../support/wrangler-dev.mjs";
import { chromium } from "../third-party/chromium.mjs";

const port = 8794;
const base = `http://127.0.0.1:${port}`;
const rootToken = "petstore-dev-token";
let server;
let browser;
let callback;
const thirdParty = [];
const problems = [];

/**
 * A client's local callback on 127.0.0.1 (RFC 8252's loopback redirect), as an agent's app or CLI runs one: `next()`
 * resolves with the URL of the next request it receives.
 */
const startCallback = async () => {
	const waiting = [];
	const http = createServer((request, response) => {
		response
			.writeHead(200, { "content-type": "text/plain" })
			.end("Signed in: you may close this tab.");
		waiting.shift()?.(new URL(request.url, `http://${request.headers.host}`));
	});
	http.listen(0, "127.0.0.1");
	await once(http, "listening");
	const url = `http://127.0.0.1:${http.address().port}/callback`;
	return {
		url,
		port: String(http.address().port),
		next: () => new Promise((resolve) => waiting.push(resolve)),
		close: () => new Promise((resolve) => http.close(resolve)),
	};
};

/** What the SDK asks of an app that signs a person in: it keeps what it is given, and is sent to a URL. */
class Agent {
	redirectUrl = callback.url;
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

/** A browser context that reaches the Worker and the client's callback only: anything else is a third party. */
const ownContext = async () => {
	const context = await browser.newContext();
	await context.route("**/*", (route) => {
		const target = new URL(route.request().url());
		const ours = [String(port), callback.port].includes(target.port);
		if (target.hostname === "127.0.0.1" && ours) return route.continue();
		thirdParty.push(target.href);
		return route.abort();
	});
	return context;
};

/**
 * The person at the consent page: gives `credential` and clicks Allow, and nothing more; what the page showed, and
 * the URL the client's callback received.
 */
const consent = async (url, credential, name) => {
	const context = await ownContext();
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
	const [back] = await Promise.all([callback.next(), page.click('button[value="allow"]')]);
	await context.close();
	return { asked, text, back };
};

/** The person at the consent page refuses: where the client's callback is sent (the page's CSP must let it go). */
const deny = async (url) => {
	const context = await ownContext();
	const page = await context.newPage();
	await page.goto(url.href);
	const [back] = await Promise.all([callback.next(), page.click('button[value="deny"]')]);
	await context.close();
	return back;
};

/** A PKCE pair (RFC 7636, S256). */
const pkce = async () => {
	const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
	const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
	return { verifier, challenge: Buffer.from(digest).toString("base64url") };
};

beforeAll(async () => {
	callback = await startCallback();
	server = await startWranglerDev({ port, probe: "/doc", envFile: ".dev.vars.example" });
	browser = await chromium.launch({
		executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
		args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
	});
}, 180_000);

afterAll(async () => {
	await browser?.close();
	await server?.stop();
	await callback?.close();
});

it("sends the browser from Allow straight to the client's loopback callback, which receives the code", async () => {
	const made = await fetch(`${base}/keys`, {
		method: "POST",
		headers: { authorization: `Bearer ${rootToken}`, "content-type": "application/json" },
		body: JSON.stringify({ name: "A person at the page", scopes: ["orders:write"] }),
	});
	const { secret } = await made.json();
	const registered = await fetch(`${base}/register`, {
		method: "POST",
		headers: { "content-type": "application/json" },
		body: JSON.stringify({
			client_name: "Loopback agent",
			redirect_uris: [callback.url],
			token_endpoint_auth_method: "none",
		}),
	});
	expect(registered.status).toBe(201);
	const { client_id } = await registered.json();
	const { verifier, challenge } = await pkce();
	const state = crypto.randomUUID();
	const authorize = new URL(`${base}/authorize`);
	authorize.search = new URLSearchParams({
		response_type: "code",
		client_id,
		redirect_uri: callback.url,
		scope: "orders:write",
		state,
		code_challenge: challenge,
		code_challenge_method: "S256",
		resource: `${base}/mcp`,
	}).toString();
	const { back } = await consent(authorize, secret, "consent-loopback");
	expect(`${back.origin}${back.pathname}`).toBe(callback.url);
	expect(back.searchParams.get("state")).toBe(state);
	expect(back.searchParams.get("iss")).toBe(base);
	const token = await fetch(`${base}/token`, {
		method: "POST",
		headers: { "content-type": "application/x-www-form-urlencoded" },
		body: new URLSearchParams({
			grant_type: "authorization_code",
			code: back.searchParams.get("code"),
			redirect_uri: callback.url,
			client_id,
			code_verifier: verifier,
			resource: `${base}/mcp`,
		}),
	});
	expect(token.status).toBe(200);
	expect(await token.json()).toMatchObject({ scope: "orders:write" });
	expect(problems).toEqual([]);
	expect(thirdParty).toEqual([]);
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
		expect(`${refused.origin}${refused.pathname}`).toBe(callback.url);
		expect(refused.searchParams.get("error")).toBe("access_denied");
		expect(refused.searchParams.get("state")).toBe(agent.lastState);

		const first = await consent(agent.authorizationUrl, secret, `consent-${revision}`);
		expect(first.text).toContain("Test agent");
		expect(first.text).toContain(new URL(callback.url).host);
		expect(first.asked).toEqual(["orders:write"]);
		expect(first.back.searchParams.get("state")).toBe(agent.lastState);
		await new StreamableHTTPClientTransport(mcpUrl, { authProvider: agent }).finishAuth(
			first.back.searchParams,
		);
		expect(agent.tokens().scope).toBe("orders:write");
		const signedIn = await connect(agent, versionNegotiation);
		expect(signedIn.getNegotiatedProtocolVersion()).toBe(revision);
		const placed = await signedIn.callTool(order);
		expect(placed.isError).toBeFalsy();
		expect(placed.structuredContent).toMatchObject({ petId, quantity: 1, complete: false });

		// A scope the grant lacks: 403 insufficient_scope, and the client asks again; the grant keeps what it had.
		const category = {
			name: "createCategory",
			arguments: { body: { name: `Signed in ${revision}` } },
		};
		await expect(signedIn.callTool(category)).rejects.toBeInstanceOf(UnauthorizedError);
		const stepUp = await consent(agent.authorizationUrl, secret, `consent-step-up-${revision}`);
		await new StreamableHTTPClientTransport(mcpUrl, { authProvider: agent }).finishAuth(
			stepUp.back.searchParams,
		);
		expect(agent.tokens().scope.split(" ").sort()).toEqual(["orders:write", "pets:write"]);
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
