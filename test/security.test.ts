import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cors } from "../src/http/cors";
import { apiRoute } from "../src/http/route";
import {
	anonymous,
	api,
	createCategory,
	createPet,
	expectError,
	inOneRateWindow,
	send,
	servedDocument,
	testApp,
	uniqueName,
} from "./support/api";

const write = (headers: Record<string, string>) =>
	anonymous("/categories", {
		method: "POST",
		headers: { "content-type": "application/json", ...headers },
		body: JSON.stringify({ name: uniqueName("Auth") }),
	});

/** The app over the test bindings, with some of them replaced. */

describe("bearer authentication on writes", () => {
	it("is declared on every write route: one without it does not compile", () => {
		const write = {
			method: "post",
			path: "/anywhere",
			operationId: "writeAnywhere",
			tag: { name: "Animals", title: "Pets", description: "Pets.", icon: "dog", parent: "Pets" },
			summary: "A write",
			description: "A write that forgot its token.",
			responses: { 204: { description: "Done." } },
		} as const;
		// @ts-expect-error: a write must name the scope it needs
		expect(apiRoute(write).security).toEqual([]);
		expect(apiRoute({ ...write, scope: "pets:write" }).security).toEqual([{ bearerAuth: [] }]);
	});

	it("says invalid_token (RFC 6750) to a token that is not accepted, and only the scheme to a request without one", async () => {
		const missing = await write({});
		expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="petstore"');
		const wrong = await write({ authorization: "Bearer wrong-token" });
		expect(wrong.headers.get("www-authenticate")).toBe(
			'Bearer realm="petstore", error="invalid_token"',
		);
	});

	it("gives another scheme the bare Bearer challenge and a malformed Bearer header invalid_request (RFC 6750 §3.1)", async () => {
		const challenges = {
			"Basic dXNlcjpwYXNz": 'Bearer realm="petstore"',
			"Token test-token-current-0123456789abcdef": 'Bearer realm="petstore"',
			"Bearertest-token-current-0123456789abcdef": 'Bearer realm="petstore"',
			Bearer: 'Bearer realm="petstore", error="invalid_request"',
			"Bearer a b": 'Bearer realm="petstore", error="invalid_request"',
			"Bearer to=ken": 'Bearer realm="petstore", error="invalid_request"',
			"Bearer tök€n": 'Bearer realm="petstore", error="invalid_request"',
			"bearer wrong-token==": 'Bearer realm="petstore", error="invalid_token"',
		};
		for (const [authorization, challenge] of Object.entries(challenges)) {
			const response = await write({ authorization });
			await expectError(response, 401, "unauthorized");
			expect(response.headers.get("www-authenticate")).toBe(challenge);
		}
	});

	it("answers 401 with WWW-Authenticate when the token is missing, malformed or wrong", async () => {
		for (const authorization of [
			undefined,
			"Bearer",
			"Bearer ",
			"Basic dXNlcjpwYXNz",
			"Bearer test-token-current-0123456789abcdef extra",
			"Bearer wrong-token",
			"Bearer test-token-current-0123456789abcdef,test-token-next-0123456789abcdef0",
		]) {
			const response = await write(authorization === undefined ? {} : { authorization });
			await expectError(response, 401, "unauthorized");
			expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
		}
	});

	it("accepts every token of a rotation, in any scheme letter case", async () => {
		for (const authorization of [
			"Bearer test-token-current-0123456789abcdef",
			"Bearer test-token-next-0123456789abcdef0",
			"bearer test-token-next-0123456789abcdef0",
		]) {
			expect((await write({ authorization })).status).toBe(201);
		}
	});

	it("guards every write method and leaves reads public", async () => {
		const category = await createCategory();
		for (const [method, path] of [
			["PUT", `/categories/${category.id}`],
			["PATCH", `/categories/${category.id}`],
			["DELETE", `/categories/${category.id}`],
			["POST", "/pets"],
			["POST", "/store/orders"],
			["PUT", "/store/inventory/1"],
		]) {
			await expectError(await anonymous(path, { method }), 401, "unauthorized");
		}
		expect((await anonymous(`/categories/${category.id}`)).status).toBe(200);
		expect((await anonymous("/pets")).status).toBe(200);
	});

	it("tells a read that needs the token, as a write, what to send", async () => {
		for (const [method, path] of [
			["GET", "/webhooks"],
			["POST", "/pets"],
		]) {
			const { message } = await expectError(await anonymous(path, { method }), 401, "unauthorized");
			expect(message).toContain("`Authorization: Bearer <token>`");
			expect(message).not.toMatch(/write/i);
		}
	});

	it("fails closed when no token is configured, and keeps reads working", async () => {
		for (const API_TOKEN of ["", " , "]) {
			const closed = testApp({ bindings: { API_TOKEN } });
			const response = await closed.send("POST", "/categories", { name: uniqueName("Closed") });
			await expectError(response, 401, "unauthorized");
			expect((await closed.anonymous("/categories")).status).toBe(200);
		}
	});

	it("declares the bearer scheme and the scope on exactly the operations that need a credential", async () => {
		const doc = await servedDocument();
		expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
			type: "http",
			scheme: "bearer",
		});
		const scopeOf = (path: string) =>
			path.startsWith("/keys")
				? "keys:manage"
				: path.startsWith("/webhooks")
					? "webhooks:manage"
					: path.startsWith("/store/orders")
						? "orders:write"
						: path.startsWith("/store/inventory")
							? "inventory:write"
							: "pets:write";
		for (const [path, methods] of Object.entries(doc.paths)) {
			for (const [method, operation] of Object.entries(methods)) {
				// Writes, and every webhook and key operation (secrets, and what one client owns), need a credential.
				const guarded = method !== "get" || /^\/(webhooks|keys)/.test(path);
				expect(operation.security, `${method} ${path}`).toEqual(
					guarded ? [{ bearerAuth: [] }] : [],
				);
				const scope = guarded ? scopeOf(path) : undefined;
				expect(operation["x-scopes"], `${method} ${path}`).toEqual(scope && [scope]);
				if (scope) expect(operation.description).toContain(`Needs the scope \`${scope}\`.`);
			}
		}
	});
});

describe("rate limiting of writes", () => {
	it("answers 429 rate_limited with Retry-After past the limit, and never limits reads", async () => {
		await inOneRateWindow();
		const limited = testApp({ bindings: { WRITE_LIMITER: env.TINY_LIMITER } });
		const create = () =>
			limited.send(
				"POST",
				"/categories",
				{ name: uniqueName("Limited") },
				{ "cf-connecting-ip": "203.0.113.7" },
			);
		expect((await create()).status).toBe(201);
		expect((await create()).status).toBe(201);
		const refused = await create();
		await expectError(refused, 429, "rate_limited");
		expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
		expect((await limited.anonymous("/categories")).status).toBe(200);
	});
});

/** A token of its own, long enough for production: its budget is its own. */
const newToken = () => `token-${crypto.randomUUID()}`;

describe("budgets belong to the client that spends them", () => {
	afterEach(() => {
		vi.restoreAllMocks();
	});

	const createAs = (app: ReturnType<typeof testApp>, token: string, address = "198.51.100.20") =>
		app.request("/categories", {
			method: "POST",
			headers: {
				authorization: `Bearer ${token}`,
				"content-type": "application/json",
				"cf-connecting-ip": address,
			},
			body: JSON.stringify({ name: uniqueName("Budget") }),
		});

	it("counts writes per token: one client spending its budget leaves another's, behind the same address", async () => {
		await inOneRateWindow();
		const [spender, neighbour] = [newToken(), newToken()];
		const app = testApp({
			bindings: { API_TOKEN: `${spender},${neighbour}`, WRITE_LIMITER: env.TINY_LIMITER },
		});
		expect((await createAs(app, spender)).status).toBe(201);
		expect((await createAs(app, spender)).status).toBe(201);
		await expectError(await createAs(app, spender), 429, "rate_limited");
		expect((await createAs(app, neighbour)).status).toBe(201);
	});

	it("counts failed authentications per address on their own budget: they never spend the token holder's", async () => {
		await inOneRateWindow();
		const holder = newToken();
		const address = "198.51.100.21";
		const app = testApp({
			bindings: {
				API_TOKEN: holder,
				AUTH_FAILURE_LIMITER: env.TINY_LIMITER,
				WRITE_LIMITER: env.TINY_LIMITER,
			},
		});
		for (let attempt = 0; attempt < 2; attempt++) {
			await expectError(await createAs(app, newToken(), address), 401, "unauthorized");
		}
		await expectError(await createAs(app, newToken(), address), 429, "rate_limited");
		expect((await createAs(app, holder, address)).status).toBe(201);
	});

	it("limits reads per address, on a budget of their own", async () => {
		await inOneRateWindow();
		const app = testApp({ bindings: { READ_LIMITER: env.TINY_LIMITER } });
		const read = (address: string) =>
			app.request("/pets", { headers: { "cf-connecting-ip": address } });
		expect((await read("198.51.100.22")).status).toBe(200);
		expect((await read("198.51.100.22")).status).toBe(200);
		await expectError(await read("198.51.100.22"), 429, "rate_limited");
		expect((await read("198.51.100.23")).status).toBe(200);
	});

	it("lets writes through when the rate limiter fails, and logs the failure once", async () => {
		const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
		const failing = {
			limit: async () => {
				throw new Error("rate limiter unreachable");
			},
		} as RateLimit;
		const app = testApp({ bindings: { WRITE_LIMITER: failing } });
		const response = await app.send("POST", "/categories", { name: uniqueName("Open") });
		expect(response.status).toBe(201);
		const logged = warn.mock.calls.map(([line]) => JSON.parse(String(line)));
		expect(logged).toEqual([
			expect.objectContaining({
				part: "rate-limiter",
				requestId: response.headers.get("x-request-id"),
			}),
		]);
	});
});

describe("tokens outside local development", () => {
	afterEach(() => {
		vi.restoreAllMocks();
	});

	const writeWith = (token: string, LOCAL_DEVELOPMENT: string) =>
		testApp({ bindings: { API_TOKEN: token, LOCAL_DEVELOPMENT } }).request("/categories", {
			method: "POST",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
			body: JSON.stringify({ name: uniqueName("Token") }),
		});

	it("refuses the development token and short tokens, and says why in the log", async () => {
		const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
		for (const token of ["petstore-dev-token", "short-but-not-dev-token"]) {
			await expectError(await writeWith(token, "false"), 401, "unauthorized");
		}
		const reasons = warn.mock.calls.map(([line]) => JSON.parse(String(line)));
		expect(reasons).toEqual([
			expect.objectContaining({ message: expect.stringContaining("it is the development token") }),
			expect.objectContaining({ message: expect.stringContaining("shorter than 32 characters") }),
		]);
	});

	it("accepts them in local development", async () => {
		for (const token of ["petstore-dev-token", "short-but-not-dev-token"]) {
			expect((await writeWith(token, "true")).status).toBe(201);
		}
	});
});

describe("request bodies", () => {
	const big = JSON.stringify({ name: "x", description: "y".repeat(17_000) });

	const post = (body: BodyInit, contentType: string) =>
		api("/categories", { method: "POST", headers: { "content-type": contentType }, body });

	it("answers 400 malformed_json to a body that is not UTF-8, and stores nothing", async () => {
		const name = uniqueName("Bytes");
		const bytes = new Uint8Array([
			...new TextEncoder().encode(`{"name":"${name} `),
			0xff,
			0xfe,
			...new TextEncoder().encode('"}'),
		]);
		await expectError(await post(bytes, "application/json"), 400, "malformed_json");
		const listed = await (await anonymous("/categories?limit=100")).text();
		expect(listed).not.toContain(name);
	});

	it("answers 415 to a charset other than UTF-8, and takes UTF-8 however it is spelled", async () => {
		const body = () => JSON.stringify({ name: uniqueName("Charset") });
		for (const contentType of [
			"application/json; charset=utf-16",
			"application/json;charset=ISO-8859-1",
			'application/json; charset="utf-8\\"x"',
			"application/json; charset",
			"application/json, text/plain",
		]) {
			await expectError(await post(body(), contentType), 415, "unsupported_media_type");
		}
		// RFC 9110 §8.3.1: whitespace around ";", empty parameters, quoted values and any case.
		for (const contentType of [
			"application/json; charset=utf-8",
			'application/json; charset="UTF-8"',
			"application/json ; charset=utf-8",
			"application/json;",
			"Application/JSON;;charset=utf8",
		]) {
			expect((await post(body(), contentType)).status).toBe(201);
		}
	});

	it("answers 415 to any other JSON type, and never stores a character the client did not send", async () => {
		const name = uniqueName("Latin");
		const latin1 = new Uint8Array([
			...new TextEncoder().encode(`{"name":"${name} Caf`),
			0xe9,
			...new TextEncoder().encode('"}'),
		]);
		for (const contentType of [
			"application/vnd.api+json; charset=iso-8859-1",
			"application/vnd.api+json",
			"application/merge-patch+json",
			"text/plain; profile=application/json",
		]) {
			await expectError(await post(latin1, contentType), 415, "unsupported_media_type");
		}
		const pet = await createPet((await createCategory()).id);
		await expectError(
			await api(`/pets/${pet.id}`, {
				method: "PATCH",
				headers: { "content-type": "application/merge-patch+json" },
				body: JSON.stringify({ name: "Patched" }),
			}),
			415,
			"unsupported_media_type",
		);
		expect(await (await api(`/pets/${pet.id}`)).json()).toEqual(pet);
		// A request without a body is not held to a body's rules, whatever type its client always sends.
		const read = { headers: { "content-type": "application/vnd.api+json" } };
		expect((await anonymous(`/pets/${pet.id}`, read)).status).toBe(200);
		const listed = await (await anonymous("/categories?limit=100")).text();
		expect(listed).not.toContain(name);
	});

	it("takes none, an empty body or {} as JSON where an operation takes no body, as HTTP libraries send them", async () => {
		const webhook = await (
			await send("POST", "/webhooks", {
				url: "https://shop.example.com/hook",
				events: ["pet.created"],
			})
		).json<{ id: number; secret: string }>();
		const rotated = await send("POST", `/webhooks/${webhook.id}/rotate-secret`, {});
		expect(rotated.status).toBe(200);
		expect((await rotated.json<{ secret: string }>()).secret).not.toBe(webhook.secret);
		for (const body of ["{}", " { } ", "", undefined]) {
			const pet = await createPet((await createCategory()).id);
			const headers = { "content-type": "application/json" };
			expect((await api(`/pets/${pet.id}`, { method: "DELETE", headers, body })).status).toBe(204);
		}
	});

	it("refuses a body with members where an operation takes none, naming them, and another type with 415; changes nothing", async () => {
		const pet = await createPet((await createCategory()).id);
		const deleting = (contentType: string, body: string) =>
			api(`/pets/${pet.id}`, { method: "DELETE", headers: { "content-type": contentType }, body });
		await expectError(await deleting("text/plain", "delete it"), 415, "unsupported_media_type");
		await expectError(await deleting("text/plain", "{}"), 415, "unsupported_media_type");
		const members = await deleting("application/json", JSON.stringify({ force: true }));
		expect(await expectError(members, 400, "validation_error")).toMatchObject({
			details: [{ path: "body.force", message: "Unknown field." }],
		});
		for (const notAnObject of ["[]", "null", "1", '"{}"']) {
			const refused = await deleting("application/json", notAnObject);
			expect(await expectError(refused, 400, "validation_error")).toMatchObject({
				details: [{ path: "body" }],
			});
		}
		await expectError(await deleting("application/json", "{"), 400, "malformed_json");
		const webhook = await (
			await send("POST", "/webhooks", {
				url: "https://shop.example.com/hook",
				events: ["pet.created"],
			})
		).json<{ id: number; secret: string }>();
		const rotation = await send("POST", `/webhooks/${webhook.id}/rotate-secret`, {
			secret: "whsec_mine",
		});
		expect(await expectError(rotation, 400, "validation_error")).toMatchObject({
			details: [{ path: "body.secret" }],
		});
		expect(await (await api(`/pets/${pet.id}`)).json()).toEqual(pet);
		// Without the token, the request is refused for that first.
		await expectError(
			await anonymous(`/pets/${pet.id}`, { method: "DELETE", body: "delete it" }),
			401,
			"unauthorized",
		);
		const response = await api("/pets", {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: '{"name": "Rex",',
		});
		await expectError(response, 400, "malformed_json");
	});

	it("answers 413 to a write that takes no body, and deletes nothing", async () => {
		const category = await createCategory();
		await expectError(
			await api(`/categories/${category.id}`, { method: "DELETE", body: big }),
			413,
			"payload_too_large",
		);
		expect((await api(`/categories/${category.id}`)).status).toBe(200);
	});

	it("answers 413 for a streamed body without Content-Length", async () => {
		const chunk = new TextEncoder().encode("x".repeat(1024));
		let sent = 0;
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				// Far more than the limit: the server must stop reading, not buffer it all.
				if (sent++ < 10_000) controller.enqueue(chunk);
				else controller.close();
			},
		});
		const response = await api("/categories", {
			method: "POST",
			headers: { "content-type": "application/json" },
			body,
			// @ts-expect-error: the Workers runtime needs this for a streamed request body
			duplex: "half",
		});
		await expectError(response, 413, "payload_too_large");
		expect(sent).toBeLessThan(10_000);
	});

	it("accepts a body just under the limit", async () => {
		const response = await send("POST", "/categories", {
			name: uniqueName("Under"),
			description: "d".repeat(500),
		});
		expect(response.status).toBe(201);
	});
});

describe("headers on every response", () => {
	it("sets secure defaults, on errors too", async () => {
		for (const response of [await anonymous("/pets"), await anonymous("/nowhere")]) {
			expect(response.headers.get("x-content-type-options")).toBe("nosniff");
			expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
			expect(response.headers.get("strict-transport-security")).toMatch(/max-age=/);
			expect(response.headers.get("x-frame-options")).toBe("DENY");
		}
	});

	it("accepts a sane incoming X-Request-Id and replaces an unsafe one", async () => {
		const kept = await anonymous("/pets", { headers: { "x-request-id": "trace-abc_123" } });
		expect(kept.headers.get("x-request-id")).toBe("trace-abc_123");
		const replaced = await anonymous("/pets", { headers: { "x-request-id": "<script>" } });
		expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
	});

	it("answers CORS preflights and exposes the API's headers to browsers", async () => {
		const preflight = await anonymous("/store/orders", {
			method: "OPTIONS",
			headers: {
				origin: "https://shop.example.com",
				"access-control-request-method": "POST",
				"access-control-request-headers": "authorization, idempotency-key",
			},
		});
		expect(preflight.status).toBe(204);
		expect(preflight.headers.get("x-request-id")).toBeTruthy();
		expect(preflight.headers.get("x-content-type-options")).toBe("nosniff");
		expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
		expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
		expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain(
			"idempotency-key",
		);

		const read = await anonymous("/pets", { headers: { origin: "https://shop.example.com" } });
		expect(read.headers.get("access-control-allow-origin")).toBe("*");
		const exposed = read.headers
			.get("access-control-expose-headers")
			?.split(",")
			.map((name) => name.trim().toLowerCase());
		expect(exposed).toEqual(
			expect.arrayContaining([
				"link",
				"etag",
				"deprecation",
				"sunset",
				"x-request-id",
				"idempotency-replayed",
			]),
		);
	});

	it("gives a Response a handler built itself its CORS headers too", async () => {
		const app = new Hono().use(cors).get("/raw", () => new Response("raw"));
		const response = await app.request("/raw");
		expect(response.headers.get("access-control-allow-origin")).toBe("*");
		expect(response.headers.get("access-control-expose-headers")).toContain("ETag");
	});

	it("gives every kind of answer its CORS headers and request id: errors, 304, the document and the reference page", async () => {
		const pet = await createPet((await createCategory()).id);
		const read = await anonymous(`/pets/${pet.id}`);
		const answers = {
			refused: await write({}),
			missing: await anonymous("/nowhere"),
			wrongMethod: await anonymous("/pets", { method: "DELETE" }),
			notModified: await anonymous(`/pets/${pet.id}`, {
				headers: { "if-none-match": read.headers.get("etag") ?? "" },
			}),
			document: await anonymous("/doc"),
			page: await anonymous("/reference"),
		};
		expect(answers.refused.status).toBe(401);
		expect(answers.missing.status).toBe(404);
		expect(answers.wrongMethod.status).toBe(405);
		expect(answers.notModified.status).toBe(304);
		for (const [name, response] of Object.entries(answers)) {
			expect(
				response.headers.get("access-control-allow-origin"),
				`${name}: ${response.status}`,
			).toBe("*");
			expect(response.headers.get("access-control-expose-headers"), name).toContain("X-Request-Id");
			expect(response.headers.get("x-request-id"), name).toBeTruthy();
		}
	});
});

describe("request logs", () => {
	afterEach(() => {
		vi.restoreAllMocks();
	});

	it("leaves a request's log to Workers Logs: the Worker writes no line of its own", async () => {
		// [observability] records method, URL, status and duration; a console line per request cost
		// about a quarter of the throughput under wrangler dev, where the inspector receives every one.
		const log = vi.spyOn(console, "log");
		const response = await anonymous("/pets/987654321");
		expect(response.status).toBe(404);
		expect(log).not.toHaveBeenCalled();
	});
});

describe("caching", () => {
	it("lets no cache store an answer with a secret, an authenticated read or a write; public reads revalidate", async () => {
		const created = await send("POST", "/webhooks", {
			url: "https://shop.example.com/hooks/cache",
			events: ["pet.created"],
		});
		expect(created.status).toBe(201);
		const { id } = await created.json<{ id: number }>();
		const rotated = await send("POST", `/webhooks/${id}/rotate-secret`, {});
		for (const response of [
			created,
			rotated,
			await api("/webhooks"),
			await api(`/webhooks/${id}`),
			await anonymous("/webhooks"),
			await send("POST", "/categories", { name: uniqueName("Cache") }),
		]) {
			expect(response.headers.get("cache-control")).toBe("no-store");
		}
		for (const response of [
			await anonymous("/pets"),
			await anonymous("/categories/1"),
			await anonymous("/doc"),
		]) {
			expect(response.headers.get("cache-control")).toBe("no-cache");
		}
		expect((await api(`/webhooks/${id}`, { method: "DELETE" })).status).toBe(204);
	});
});
