import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../src/index";
import { authorizationServer } from "../src/oauth/server";
import {
	api,
	inOneRateWindow,
	send,
	stockedPet,
	stockOf,
	testApp,
	token,
	uniqueName,
} from "./support/api";
import { toolCall } from "./support/mcp";
import { mockReceivers, receiverUrl } from "./support/webhooks";

// Hosted agents sign in to /mcp with OAuth 2.1, through the Worker as deployed: the OAuth library's endpoints, the
// consent page, and /mcp acting as the key that consented.

const origin = "https://petstore.test";
const resource = `${origin}/mcp`;
const redirectUri = "http://127.0.0.1:9999/callback";

afterEach(() => {
	vi.restoreAllMocks();
});

/** A request to the Worker, answered once its background work is done. */
const fetchWorker = async (
	path: string,
	init?: RequestInit,
	at = origin,
	bindings: Partial<Env> = {},
) => {
	const ctx = createExecutionContext();
	const response = await worker.fetch(
		new Request(new URL(path, at), init) as Request<unknown, IncomingRequestCfProperties>,
		{ ...env, ...bindings },
		ctx,
	);
	await waitOnExecutionContext(ctx);
	return response;
};

const form = (fields: Record<string, string>) => ({
	method: "POST",
	headers: { "content-type": "application/x-www-form-urlencoded" },
	body: new URLSearchParams(fields).toString(),
});

const base64url = (bytes: ArrayBuffer | Uint8Array) =>
	new Uint8Array(bytes).toBase64({ alphabet: "base64url", omitPadding: true });

/** A key with `scopes`, made with the root token. */
const makeKey = async (scopes: string[]) => {
	const response = await send("POST", "/keys", { name: uniqueName("Consenting"), scopes });
	return response.json<{ id: number; secret: string }>();
};

/** A client registered as an agent registers (RFC 7591): public, PKCE, refresh tokens. */
const registerClient = async (redirectUris = [redirectUri], clientName = "Test agent") => {
	const response = await fetchWorker("/register", {
		method: "POST",
		headers: { "content-type": "application/json" },
		body: JSON.stringify({
			client_name: clientName,
			redirect_uris: redirectUris,
			token_endpoint_auth_method: "none",
			grant_types: ["authorization_code", "refresh_token"],
			response_types: ["code"],
		}),
	});
	return response;
};

/** An authorization request of `clientId` for `scope`, with its PKCE verifier and state. */
const authorization = async (clientId: string, scope: string, redirect = redirectUri) => {
	const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
	const challenge = base64url(
		await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)),
	);
	const state = crypto.randomUUID();
	const query = new URLSearchParams({
		response_type: "code",
		client_id: clientId,
		redirect_uri: redirect,
		scope,
		state,
		code_challenge: challenge,
		code_challenge_method: "S256",
		resource,
	}).toString();
	return { verifier, state, query };
};

/** Where Allow sent the browser: straight back to the client's redirect URI (303), with no page between. */
const sentBack = (allowed: Response) => {
	expect(allowed.status).toBe(303);
	const back = new URL(allowed.headers.get("location") ?? "");
	expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
	return back;
};

/** A client registered as an agent registers, by its id. */
const newClient = async () =>
	(await (await registerClient()).json<{ client_id: string }>()).client_id;

/**
 * The code a person's consent with `credential` gives a client (a new one unless told) asking `scope`, and what
 * goes with it.
 */
const consentCode = async (credential: string, scope: string, clientId?: string) => {
	const client_id = clientId ?? (await newClient());
	const { verifier, state, query } = await authorization(client_id, scope);
	const consent = await fetchWorker(`/authorize?${query}`);
	expect(consent.status).toBe(200);
	const allowed = await fetchWorker(
		"/authorize",
		form({ request: query, credential, decision: "allow" }),
	);
	const back = sentBack(allowed);
	expect(back.searchParams.get("state")).toBe(state);
	expect(back.searchParams.get("iss")).toBe(origin);
	return { clientId: client_id, verifier, code: back.searchParams.get("code") ?? "" };
};

/** The token endpoint's answer to trading `code` with `verifier` (none when undefined). */
const exchange = (code: string, clientId: string, verifier?: string) =>
	fetchWorker(
		"/token",
		form({
			grant_type: "authorization_code",
			code,
			redirect_uri: redirectUri,
			client_id: clientId,
			...(verifier !== undefined && { code_verifier: verifier }),
			resource,
		}),
	);

/** Tokens as the token endpoint answers them. */
type Tokens = { access_token: string; refresh_token: string; scope: string; expires_in: number };

/** Signs an agent (a new client unless told) in with `credential`, asking `scope`: the tokens it gets. */
const signIn = async (credential: string, scope: string, client?: string) => {
	const { clientId, verifier, code } = await consentCode(credential, scope, client);
	const token = await exchange(code, clientId, verifier);
	expect(token.status).toBe(200);
	return { ...(await token.json<Tokens>()), clientId };
};

/** The token endpoint's answer to a refresh of `clientId`'s grant with `refreshToken`, asking `scope` if given. */
const refresh = (clientId: string, refreshToken: string, scope?: string) =>
	fetchWorker(
		"/token",
		form({
			grant_type: "refresh_token",
			refresh_token: refreshToken,
			client_id: clientId,
			resource,
			...(scope !== undefined && { scope }),
		}),
	);

/** A `tools/call` of the current revision, as the Worker answers it. */
const callTool = (
	name: string,
	args: unknown,
	credential?: string,
	at = origin,
	bindings: Partial<Env> = {},
) =>
	fetchWorker(
		"/mcp",
		toolCall(`${at}/mcp`, name, args, credential ? { authorization: `Bearer ${credential}` } : {}),
		at,
		bindings,
	);

/**
 * Signs an agent in with `credential`, granting `orders:write`: an order within the grant is placed, a category
 * beyond it is a 403, which it answers.
 */
const actsNarrowed = async (credential: string) => {
	const { access_token } = await signIn(credential, "orders:write");
	const pet = await stockedPet(5);
	const placed = await callTool(
		"placeOrder",
		{ body: { petId: pet.id, quantity: 1 } },
		access_token,
	);
	expect(placed.status).toBe(200);
	expect(JSON.stringify(await placed.json())).toContain('"complete":false');
	const stepUp = await callTool(
		"createCategory",
		{ body: { name: uniqueName("Agent") } },
		access_token,
	);
	expect(stepUp.status).toBe(403);
	return stepUp;
};

describe("discovery", () => {
	it("names this origin as /mcp's authorization server, at RFC 9728's path and at the root", async () => {
		for (const path of [
			"/.well-known/oauth-protected-resource/mcp",
			"/.well-known/oauth-protected-resource",
		]) {
			const metadata = await (await fetchWorker(path)).json();
			expect(metadata).toEqual({
				resource,
				authorization_servers: [origin],
				scopes_supported: ["pets:write", "orders:write", "inventory:write", "webhooks:manage"],
				bearer_methods_supported: ["header"],
				resource_name: "Petstore API",
			});
		}
	});

	it("describes the authorization server (RFC 8414): code with S256 PKCE, refresh tokens, public clients, client metadata documents, registration, iss", async () => {
		const metadata = await (await fetchWorker("/.well-known/oauth-authorization-server")).json();
		expect(metadata).toMatchObject({
			issuer: origin,
			authorization_endpoint: `${origin}/authorize`,
			token_endpoint: `${origin}/token`,
			registration_endpoint: `${origin}/register`,
			response_types_supported: ["code"],
			grant_types_supported: expect.arrayContaining(["authorization_code", "refresh_token"]),
			code_challenge_methods_supported: ["S256"],
			token_endpoint_auth_methods_supported: expect.arrayContaining(["none"]),
			client_id_metadata_document_supported: true,
			authorization_response_iss_parameter_supported: true,
		});
	});

	it("is served over https or on a loopback host only: elsewhere every OAuth path is a 404 Error", async () => {
		for (const path of [
			"/.well-known/oauth-protected-resource/mcp",
			"/.well-known/oauth-authorization-server",
			"/authorize",
			"/token",
			"/register",
		]) {
			const response = await fetchWorker(path, undefined, "http://petstore.test");
			expect(response.status, path).toBe(404);
			expect(await response.json()).toMatchObject({ code: "not_found", status: 404 });
		}
		const local = await fetchWorker(
			"/.well-known/oauth-authorization-server",
			undefined,
			"http://localhost:8787",
		);
		expect(await local.json()).toMatchObject({ issuer: "http://localhost:8787" });
	});
});

describe("signing an agent in", () => {
	it("names the client and where it returns, and lists the scopes asked", async () => {
		const { client_id } = await (await registerClient()).json<{ client_id: string }>();
		const { query } = await authorization(client_id, "orders:write pets:write");
		const consent = await fetchWorker(`/authorize?${query}`);
		const page = await consent.text();
		expect(page).toContain("Test agent");
		expect(page).toContain("127.0.0.1:9999");
		expect(page).toContain("<code>orders:write</code>");
		expect(page).toContain("<code>pets:write</code>");
		expect(consent.headers.get("content-security-policy")).toContain("default-src 'none'");
		expect(consent.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
	});

	it("names a client by its id when its name would reorder or hide text, which registration refuses", async () => {
		const spoof = "Evil\u202eppA detsurT";
		expect((await registerClient([redirectUri], spoof)).status).toBe(400);
		// A client named elsewhere than by registration, as a client metadata document names one.
		const { clientId: client_id } = await authorizationServer(origin)
			.getOAuthApi(env)
			.createClient({
				redirectUris: [redirectUri],
				clientName: spoof,
				tokenEndpointAuthMethod: "none",
			});
		const { query } = await authorization(client_id, "orders:write");
		const page = await (await fetchWorker(`/authorize?${query}`)).text();
		expect(page).not.toContain("\u202e");
		expect(page).toContain(`<strong>${client_id}</strong>`);
	});

	it("grants the scopes asked that the credential holds, never more", async () => {
		const key = await makeKey(["orders:write", "webhooks:manage"]);
		const { scope } = await signIn(key.secret, "orders:write pets:write");
		expect(scope).toBe("orders:write");
	});

	it("sends the browser straight back to the client on Allow: 303 to its redirect URI with code, state and iss", async () => {
		const key = await makeKey(["orders:write"]);
		const clientId = await newClient();
		const { query, state } = await authorization(clientId, "orders:write");
		const allowed = await fetchWorker(
			"/authorize",
			form({ request: query, credential: key.secret, decision: "allow" }),
		);
		const back = sentBack(allowed);
		expect(Object.fromEntries(back.searchParams)).toEqual({
			code: expect.stringMatching(/^key-\d+:/),
			state,
			iss: origin,
		});
		expect(await allowed.text()).toBe("");
	});

	it("lets its form send the browser back to a private-use scheme (its CSP names the scheme)", async () => {
		const registered = await registerClient(["cursor://anysphere.cursor-mcp/oauth/callback"]);
		const { client_id } = await registered.json<{ client_id: string }>();
		const { query } = await authorization(
			client_id,
			"orders:write",
			"cursor://anysphere.cursor-mcp/oauth/callback",
		);
		const consent = await fetchWorker(`/authorize?${query}`);
		expect(consent.status).toBe(200);
		expect(consent.headers.get("content-security-policy")).toContain("form-action 'self' cursor:;");
	});

	it("sends the client back with access_denied when the person refuses", async () => {
		const { client_id } = await (await registerClient()).json<{ client_id: string }>();
		const { query, state } = await authorization(client_id, "orders:write");
		const denied = await fetchWorker("/authorize", form({ request: query, decision: "deny" }));
		expect(denied.status).toBe(303);
		const back = new URL(denied.headers.get("location") ?? "");
		expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
		expect(Object.fromEntries(back.searchParams)).toMatchObject({
			error: "access_denied",
			state,
			iss: origin,
		});
	});

	it("grants nothing for a credential that is not one, or that holds none of the scopes asked", async () => {
		const { client_id } = await (await registerClient()).json<{ client_id: string }>();
		const { query } = await authorization(client_id, "pets:write");
		for (const credential of ["pst_not-a-key", "", "root"]) {
			const refused = await fetchWorker(
				"/authorize",
				form({ request: query, credential, decision: "allow" }),
			);
			expect(refused.status).toBe(401);
			expect(await refused.text()).not.toContain("code=");
		}
		const key = await makeKey(["orders:write"]);
		const lacking = await fetchWorker(
			"/authorize",
			form({ request: query, credential: key.secret, decision: "allow" }),
		);
		expect(lacking.status).toBe(403);
		expect(await lacking.text()).not.toContain("code=");
	});

	it("refuses a request the library does not accept: plain PKCE, none, an unregistered redirect", async () => {
		const { client_id } = await (await registerClient()).json<{ client_id: string }>();
		const { query } = await authorization(client_id, "orders:write");
		const plain = new URLSearchParams(query);
		plain.set("code_challenge_method", "plain");
		const noPkce = new URLSearchParams(query);
		noPkce.delete("code_challenge");
		noPkce.delete("code_challenge_method");
		const elsewhere = new URLSearchParams(query);
		elsewhere.set("redirect_uri", "https://attacker.example/callback");
		for (const refused of [plain, noPkce, elsewhere]) {
			const response = await fetchWorker(`/authorize?${refused}`, { redirect: "manual" });
			const location = response.headers.get("location") ?? "";
			expect(response.status === 400 || location.includes("error="), refused.toString()).toBe(true);
			expect(location).not.toContain("attacker.example");
		}
	});

	it("trades a code only with its PKCE verifier, and only once", async () => {
		const key = await makeKey(["orders:write"]);
		for (const verifier of [undefined, base64url(crypto.getRandomValues(new Uint8Array(32)))]) {
			const { clientId, code } = await consentCode(key.secret, "orders:write");
			const refused = await exchange(code, clientId, verifier);
			expect(refused.status).toBe(400);
			expect(await refused.json()).toMatchObject({ error: expect.stringMatching(/^invalid_/) });
		}
		const { clientId, code, verifier } = await consentCode(key.secret, "orders:write");
		expect((await exchange(code, clientId, verifier)).status).toBe(200);
		const again = await exchange(code, clientId, verifier);
		expect(again.status).toBe(400);
		expect(await again.json()).toMatchObject({ error: "invalid_grant" });
	});

	it("answers a body that is not the page's form as no sign-in request, never a 500", async () => {
		for (const type of ["multipart/form-data; boundary=x", "multipart/form-data"]) {
			const response = await fetchWorker("/authorize", {
				method: "POST",
				headers: { "content-type": type },
				body: "--x\r\nnot a part",
			});
			expect(response.status, type).toBe(400);
		}
	});

	it("registers only https, loopback and private-use redirects", async () => {
		expect((await registerClient(["http://attacker.example/callback"])).status).toBe(400);
		expect(
			(await registerClient(["http://127.0.0.1:1234/cb", "cursor://petstore/cb"])).status,
		).toBe(201);
	});

	it("refuses a client id whose metadata document is on a host that is not public, before fetching it", async () => {
		const receivers = mockReceivers();
		for (const clientId of [
			"https://10.0.0.1/client.json",
			"https://metadata.internal/client.json",
		]) {
			const { query } = await authorization(clientId, "orders:write");
			const page = await fetchWorker(`/authorize?${query}`);
			expect(page.status).toBe(400);
			const posted = await fetchWorker(
				"/authorize",
				form({ request: query, credential: "pst_any", decision: "allow" }),
			);
			expect(posted.status).toBe(400);
			expect(await posted.text()).toContain("may not be fetched");
			const token = await fetchWorker(
				"/token",
				form({ grant_type: "authorization_code", code: "x", client_id: clientId }),
			);
			expect(token.status).toBe(400);
			expect(await token.json()).toMatchObject({ error: "invalid_client" });
		}
		receivers.resolves("rebound.example.com", "10.1.2.3");
		const { query } = await authorization(
			"https://rebound.example.com/client.json",
			"orders:write",
		);
		const rebound = await fetchWorker(`/authorize?${query}`);
		expect(rebound.status).toBe(400);
		expect(await rebound.text()).toContain("resolves to 10.1.2.3");
		expect(receivers.received("https://rebound.example.com/client.json")).toEqual([]);
	});

	it("reads a client's name from its metadata document on a public host", async () => {
		const receivers = mockReceivers();
		const clientId = "https://agents.example.com/oauth/client.json";
		receivers.answer(clientId, () =>
			Response.json({
				client_id: clientId,
				client_name: "Document agent",
				redirect_uris: [redirectUri],
				token_endpoint_auth_method: "none",
			}),
		);
		const { query } = await authorization(clientId, "orders:write");
		const consent = await fetchWorker(`/authorize?${query}`);
		const text = await consent.text();
		expect(consent.status, text).toBe(200);
		expect(text).toContain("Document agent");
	});
});

describe("an agent's token", () => {
	it("acts on /mcp as the key that consented, narrowed to what it granted", async () => {
		const key = await makeKey(["orders:write", "pets:write"]);
		const stepUp = await actsNarrowed(key.secret);
		expect(stepUp.headers.get("www-authenticate")).toBe(
			`Bearer error="insufficient_scope", scope="pets:write", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
		);
	});

	it("acts with the consenting key's webhooks, Idempotency-Keys and write budget", async () => {
		await inOneRateWindow();
		const key = await makeKey(["orders:write", "webhooks:manage"]);
		const rest = testApp({ credential: key.secret, bindings: { WRITE_LIMITER: env.TINY_LIMITER } });
		const hook = await rest.send("POST", "/webhooks", {
			url: receiverUrl(),
			events: ["order.placed"],
		});
		expect(hook.status).toBe(201);
		const { id: webhookId } = await hook.json<{ id: number }>();
		const { access_token } = await signIn(key.secret, "orders:write webhooks:manage");
		const tiny = { WRITE_LIMITER: env.TINY_LIMITER };
		const listed = await callTool("listWebhooks", {}, access_token, origin, tiny);
		expect(JSON.stringify(await listed.json())).toContain(`"id":${webhookId}`);
		const pet = await stockedPet(5);
		const order = { petId: pet.id, quantity: 1 };
		const retried = { "Idempotency-Key": crypto.randomUUID() };
		const placed = await rest.send("POST", "/store/orders", order, retried);
		expect(placed.status).toBe(201);
		// The same key's retry through the agent: a replay, not a second order.
		const replayed = await callTool("placeOrder", { body: order, ...retried }, access_token);
		expect(JSON.stringify(await replayed.json())).toContain('"Idempotency-Replayed":"true"');
		expect(await stockOf(pet.id)).toBe(4);
		// The webhook and the order spent the key's two writes: the agent's next write is over its budget.
		const spent = await callTool("placeOrder", { body: order }, access_token, origin, tiny);
		expect(JSON.stringify(await spent.json())).toContain('"code":"rate_limited"');
		expect(await stockOf(pet.id)).toBe(4);
	});

	it("acts as the root token when the root token consented, narrowed to what it granted", async () => {
		await actsNarrowed(token);
	});

	it("is refused anywhere but /mcp at its origin: REST, and another origin's /mcp", async () => {
		const key = await makeKey(["orders:write"]);
		const { access_token } = await signIn(key.secret, "orders:write");
		const pet = await stockedPet(5);
		const rest = await fetchWorker("/store/orders", {
			method: "POST",
			headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
			body: JSON.stringify({ petId: pet.id, quantity: 1 }),
		});
		expect(rest.status).toBe(401);
		const elsewhere = await callTool(
			"placeOrder",
			{ body: { petId: pet.id, quantity: 1 } },
			access_token,
			"https://other.test",
		);
		expect(elsewhere.status).toBe(401);
		expect(elsewhere.headers.get("www-authenticate")).toContain('error="invalid_token"');
	});

	it("stops working when the key that granted it is revoked, and is renewed no more", async () => {
		const key = await makeKey(["orders:write"]);
		const { access_token, refresh_token, clientId } = await signIn(key.secret, "orders:write");
		const pet = await stockedPet(5);
		const order = { body: { petId: pet.id, quantity: 1 } };
		expect((await callTool("placeOrder", order, access_token)).status).toBe(200);
		expect((await api(`/keys/${key.id}`, { method: "DELETE" })).status).toBe(204);
		const refused = await callTool("placeOrder", order, access_token);
		expect(refused.status).toBe(401);
		expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
		const renewal = await refresh(clientId, refresh_token);
		expect(renewal.status).toBe(400);
		expect(await renewal.json()).toMatchObject({ error: "invalid_grant" });
	});

	it("lives no longer than the key that granted it", async () => {
		// The OAuth library keeps the real clock: the key is made, and expires, on it.
		const now = Date.now();
		const expiresAt = new Date(now + 120_000).toISOString();
		const made = await testApp({ now }).send("POST", "/keys", {
			name: uniqueName("Expiring"),
			scopes: ["orders:write"],
			expiresAt,
		});
		const key = await made.json<{ secret: string }>();
		const signedIn = await signIn(key.secret, "orders:write");
		expect(signedIn.expires_in).toBeGreaterThan(100);
		expect(signedIn.expires_in).toBeLessThanOrEqual(120);
		// Under a minute left: the library's shortest life, and /mcp checks the key's expiry on every call.
		const nearly = await testApp({ now }).send("POST", "/keys", {
			name: uniqueName("Nearly expired"),
			scopes: ["orders:write"],
			expiresAt: new Date(now + 30_000).toISOString(),
		});
		const nearlyKey = await nearly.json<{ secret: string }>();
		expect((await signIn(nearlyKey.secret, "orders:write")).expires_in).toBe(60);
	});

	it("of the root token stops when that root token is no longer configured", async () => {
		const { access_token, refresh_token, clientId } = await signIn(token, "orders:write");
		const [, next] = env.API_TOKEN.split(",");
		const rotated = { API_TOKEN: next };
		const pet = await stockedPet(5);
		const order = { body: { petId: pet.id, quantity: 1 } };
		const call = await callTool("placeOrder", order, access_token, origin, rotated);
		expect(call.status).toBe(401);
		const renewal = await fetchWorker(
			"/token",
			form({ grant_type: "refresh_token", refresh_token, client_id: clientId, resource }),
			origin,
			rotated,
		);
		expect(renewal.status).toBe(400);
		expect(await renewal.json()).toMatchObject({ error: "invalid_grant" });
		expect(await stockOf(pet.id)).toBe(5);
	});

	it("is renewed with its refresh token, which rotates", async () => {
		const key = await makeKey(["orders:write"]);
		const { refresh_token, clientId } = await signIn(key.secret, "orders:write");
		const first = await refresh(clientId, refresh_token);
		expect(first.status).toBe(200);
		const renewed = await first.json<Tokens>();
		expect(renewed.refresh_token).not.toBe(refresh_token);
		expect((await refresh(clientId, renewed.refresh_token)).status).toBe(200);
		expect((await refresh(clientId, refresh_token)).status).toBe(400);
		const pet = await stockedPet(5);
		expect(
			(await callTool("placeOrder", { body: { petId: pet.id, quantity: 1 } }, renewed.access_token))
				.status,
		).toBe(200);
	});
});

describe("stepping up", () => {
	it("widens the client's grant from the same key to the union of what it held and what it newly asks", async () => {
		const key = await makeKey(["orders:write", "pets:write"]);
		const first = await signIn(key.secret, "pets:write");
		expect(first.scope).toBe("pets:write");
		const second = await signIn(key.secret, "orders:write", first.clientId);
		expect(second.scope.split(" ").sort()).toEqual(["orders:write", "pets:write"]);
		const pet = await stockedPet(5);
		const order = { body: { petId: pet.id, quantity: 1 } };
		expect((await callTool("placeOrder", order, second.access_token)).status).toBe(200);
		const category = { body: { name: uniqueName("Stepped up") } };
		expect((await callTool("createCategory", category, second.access_token)).status).toBe(200);
		// The grant it replaced is gone, with its tokens.
		expect((await refresh(first.clientId, first.refresh_token)).status).toBe(400);
		expect((await callTool("createCategory", category, first.access_token)).status).toBe(401);
	});

	it("widens the root token's grant the same way", async () => {
		const first = await signIn(token, "inventory:write");
		const second = await signIn(token, "orders:write", first.clientId);
		expect(second.scope.split(" ").sort()).toEqual(["inventory:write", "orders:write"]);
	});

	it("keeps only what the key still holds, and never a grant another key gave the client", async () => {
		const key = await makeKey(["orders:write", "pets:write", "webhooks:manage"]);
		const first = await signIn(key.secret, "pets:write webhooks:manage");
		const narrowed = await send("PATCH", `/keys/${key.id}`, {
			scopes: ["orders:write", "webhooks:manage"],
		});
		expect(narrowed.status).toBe(200);
		const second = await signIn(key.secret, "orders:write", first.clientId);
		expect(second.scope.split(" ").sort()).toEqual(["orders:write", "webhooks:manage"]);
		const other = await makeKey(["inventory:write"]);
		const third = await signIn(other.secret, "inventory:write", first.clientId);
		expect(third.scope).toBe("inventory:write");
	});
});

describe("refreshing a token", () => {
	it("refuses a scope beyond its grant (invalid_scope), and narrows to a scope within it", async () => {
		const key = await makeKey(["orders:write", "pets:write"]);
		const { refresh_token, clientId } = await signIn(key.secret, "orders:write");
		const wider = await refresh(clientId, refresh_token, "orders:write pets:write");
		expect(wider.status).toBe(400);
		expect(wider.headers.get("cache-control")).toBe("no-store");
		expect(await wider.json()).toMatchObject({
			error: "invalid_scope",
			error_description: expect.stringContaining("pets:write"),
		});
		// The refused refresh spent nothing: the token still renews.
		const within = await refresh(clientId, refresh_token, "orders:write");
		expect(within.status).toBe(200);
		expect((await within.json<Tokens>()).scope).toBe("orders:write");
	});

	it("answers the scope its token may use now: the grant narrowed to the key's current scopes", async () => {
		const key = await makeKey(["orders:write", "pets:write"]);
		const { refresh_token, clientId } = await signIn(key.secret, "orders:write pets:write");
		const narrowed = await send("PATCH", `/keys/${key.id}`, { scopes: ["orders:write"] });
		expect(narrowed.status).toBe(200);
		const renewal = await refresh(clientId, refresh_token);
		expect(renewal.status).toBe(200);
		const renewed = await renewal.json<Tokens>();
		expect(renewed.scope).toBe("orders:write");
		const category = { body: { name: uniqueName("Lost scope") } };
		const refused = await callTool("createCategory", category, renewed.access_token);
		expect(refused.status).toBe(403);
		// Given back to the key, the scope comes back with the next refresh: the grant kept it.
		await send("PATCH", `/keys/${key.id}`, { scopes: ["orders:write", "pets:write"] });
		const restored = await refresh(clientId, renewed.refresh_token);
		expect((await restored.json<Tokens>()).scope.split(" ").sort()).toEqual([
			"orders:write",
			"pets:write",
		]);
	});

	it("ends a grant whose key holds none of its scopes any more (invalid_grant: the agent signs in again)", async () => {
		const key = await makeKey(["orders:write", "pets:write"]);
		const { refresh_token, clientId } = await signIn(key.secret, "pets:write");
		await send("PATCH", `/keys/${key.id}`, { scopes: ["orders:write"] });
		const renewal = await refresh(clientId, refresh_token);
		expect(renewal.status).toBe(400);
		expect(await renewal.json()).toMatchObject({ error: "invalid_grant" });
	});
});

describe("registering a client", () => {
	/** A registration of `metadata` over the usual public client's, from `address`. */
	const register = (metadata: Record<string, unknown>, address = "192.0.2.1", bindings = {}) =>
		fetchWorker(
			"/register",
			{
				method: "POST",
				headers: { "content-type": "application/json", "cf-connecting-ip": address },
				body: JSON.stringify({
					client_name: "Test agent",
					redirect_uris: [redirectUri],
					token_endpoint_auth_method: "none",
					...metadata,
				}),
			},
			origin,
			bindings,
		);
	/** `count` loopback redirect URIs of `length` characters each. */
	const uris = (count: number, length = 64) =>
		Array.from({ length: count }, (_, index) => `${redirectUri}/${index}/`.padEnd(length, "x"));

	it("takes at most 10 redirect URIs of at most 2,048 characters: beyond, invalid_redirect_uri", async () => {
		expect((await register({ redirect_uris: uris(10) })).status).toBe(201);
		expect((await register({ redirect_uris: uris(1, 2048) })).status).toBe(201);
		for (const redirect_uris of [uris(11), uris(1, 2049)]) {
			const refused = await register({ redirect_uris });
			expect(refused.status).toBe(400);
			expect(await refused.json()).toEqual({
				error: "invalid_redirect_uri",
				error_description: expect.any(String),
			});
		}
	});

	it("takes a client name of at most 100 characters, held to the API's name rules, and 8 KiB in all: beyond, invalid_client_metadata", async () => {
		expect((await register({ client_name: "n".repeat(100) })).status).toBe(201);
		for (const metadata of [
			{ client_name: "n".repeat(101) },
			{ software_id: "s".repeat(8192) },
			// A name is held to the API's name rules: no invisible or bidirectional characters to pass for another.
			{ client_name: "Cla\ufffbude" },
			{ client_name: "Claude\u202e" },
		]) {
			const refused = await register(metadata);
			expect(refused.status).toBe(400);
			expect(await refused.json()).toEqual({
				error: "invalid_client_metadata",
				error_description: expect.any(String),
			});
		}
	});

	it("counts registrations per address: past the budget, 429 with Retry-After, and another address goes on", async () => {
		await inOneRateWindow();
		const tiny = { REGISTER_LIMITER: env.TINY_LIMITER };
		expect((await register({}, "198.51.100.31", tiny)).status).toBe(201);
		expect((await register({}, "198.51.100.31", tiny)).status).toBe(201);
		const refused = await register({}, "198.51.100.31", tiny);
		expect(refused.status).toBe(429);
		expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
		expect(await refused.json()).toMatchObject({ error: "temporarily_unavailable" });
		expect((await register({}, "198.51.100.32", tiny)).status).toBe(201);
	});
});

describe("every OAuth answer", () => {
	/** The secure headers of an API answer, by name: every OAuth answer carries the same. */
	const secureHeaders = async () => {
		const names = [
			"content-security-policy",
			"cross-origin-resource-policy",
			"referrer-policy",
			"strict-transport-security",
			"x-content-type-options",
			"x-frame-options",
		];
		const answer = await fetchWorker("/pets");
		return Object.fromEntries(names.map((name) => [name, answer.headers.get(name)]));
	};

	it("of the library's endpoints carries X-Request-Id and the API's secure headers, and tokens no-store", async () => {
		const expected = await secureHeaders();
		expect(expected["x-content-type-options"]).toBe("nosniff");
		const key = await makeKey(["orders:write"]);
		const { clientId, code, verifier } = await consentCode(key.secret, "orders:write");
		const answers = {
			metadata: await fetchWorker("/.well-known/oauth-authorization-server"),
			registered: await registerClient(),
			refusedRegistration: await registerClient(["http://attacker.example/callback"]),
			token: await exchange(code, clientId, verifier),
			refusedToken: await exchange(code, clientId, verifier),
		};
		for (const [name, answer] of Object.entries(answers)) {
			expect(answer.headers.get("x-request-id"), name).toMatch(/^[\w-]+$/);
			for (const [header, value] of Object.entries(expected)) {
				expect(answer.headers.get(header), `${name}: ${header}`).toBe(value);
			}
		}
		expect(answers.token.status).toBe(200);
		expect(answers.token.headers.get("cache-control")).toBe("no-store");
		expect(answers.refusedToken.headers.get("cache-control")).toBe("no-store");
	});

	it("lets a browser client reach the library's endpoints: preflights answered, CORS on the answers", async () => {
		const browser = { origin: "https://inspector.example" };
		for (const path of ["/token", "/register", "/.well-known/oauth-authorization-server"]) {
			const preflight = await fetchWorker(path, {
				method: "OPTIONS",
				headers: {
					...browser,
					"access-control-request-method": "POST",
					"access-control-request-headers": "content-type",
				},
			});
			expect(preflight.status, path).toBe(204);
			expect(preflight.headers.get("access-control-allow-origin"), path).toBeTruthy();
		}
		const metadata = await fetchWorker("/.well-known/oauth-authorization-server", {
			headers: browser,
		});
		expect(metadata.headers.get("access-control-allow-origin")).toBeTruthy();
	});

	it("of the consent page and the resource's metadata carries X-Request-Id and the secure headers too", async () => {
		const clientId = await newClient();
		const { query } = await authorization(clientId, "orders:write");
		const key = await makeKey(["orders:write"]);
		for (const answer of [
			await fetchWorker("/.well-known/oauth-protected-resource/mcp"),
			await fetchWorker(`/authorize?${query}`),
			await fetchWorker(
				"/authorize",
				form({ request: query, credential: key.secret, decision: "allow" }),
			),
		]) {
			expect(answer.headers.get("x-request-id")).toMatch(/^[\w-]+$/);
			expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
			expect(answer.headers.get("x-frame-options")).toBe("DENY");
		}
	});
});
