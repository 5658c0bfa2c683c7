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
			tag: "Animals",
			summary: "A write",
			description: "A write that forgot its token.",
			responses: { 204: { description: "Done." } },
		} as const;
		// @ts-expect-error: a write must say `auth: "bearer"`
		expect(apiRoute(write).security).toEqual([]);
		expect(apiRoute({ ...write, auth: "bearer" }).security).toEqual([
			{ bearerAuth: [] },
		]);
	});

	it("answers 401 with WWW-Authenticate when the token is missing, malformed or wrong", async () => {
		for (const authorization of [
			undefined,
			"Bearer",
			"Bearer ",
			"Basic dXNlcjpwYXNz",
			"Bearer test-token-current extra",
			"Bearer wrong-token",
			"Bearer test-token-current,test-token-next",
		]) {
			const response = await write(
				authorization === undefined ? {} : { authorization },
			);
			await expectError(response, 401, "unauthorized");
			expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
		}
	});

	it("accepts every token of a rotation, in any scheme letter case", async () => {
		for (const authorization of [
			"Bearer test-token-current",
			"Bearer test-token-next",
			"bearer test-token-next",
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
			const { message } = await expectError(
				await anonymous(path, { method }),
				401,
				"unauthorized",
			);
			expect(message).toContain("`Authorization: Bearer <token>`");
			expect(message).not.toMatch(/write/i);
		}
	});

	it("fails closed when no token is configured, and keeps reads working", async () => {
		for (const API_TOKEN of ["", " , "]) {
			const closed = testApp({ bindings: { API_TOKEN } });
			const response = await closed.send("POST", "/categories", {
				name: uniqueName("Closed"),
			});
			await expectError(response, 401, "unauthorized");
			expect((await closed.anonymous("/categories")).status).toBe(200);
		}
	});

	it("declares the bearer scheme on exactly the write operations", async () => {
		const doc = await servedDocument();
		expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
			type: "http",
			scheme: "bearer",
		});
		for (const [path, methods] of Object.entries(doc.paths)) {
			for (const [method, operation] of Object.entries(methods)) {
				// Writes, and every webhook operation (their secrets sign deliveries), need the token.
				const guarded = method !== "get" || path.startsWith("/webhooks");
				expect(operation.security, `${method} ${path}`).toEqual(
					guarded ? [{ bearerAuth: [] }] : [],
				);
			}
		}
	});
});

describe("rate limiting of writes", () => {
	it("answers 429 rate_limited with Retry-After past the limit, and never limits reads", async () => {
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

describe("request bodies", () => {
	const big = JSON.stringify({ name: "x", description: "y".repeat(17_000) });

	it("answers 413 payload_too_large over 16 KiB", async () => {
		await expectError(
			await api("/categories", {
				method: "POST",
				headers: { "content-type": "application/json" },
				body: big,
			}),
			413,
			"payload_too_large",
		);
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
		for (const response of [
			await anonymous("/pets"),
			await anonymous("/nowhere"),
		]) {
			expect(response.headers.get("x-content-type-options")).toBe("nosniff");
			expect(response.headers.get("content-security-policy")).toContain(
				"default-src 'none'",
			);
			expect(response.headers.get("strict-transport-security")).toMatch(
				/max-age=/,
			);
			expect(response.headers.get("x-frame-options")).toBe("SAMEORIGIN");
		}
	});

	it("accepts a sane incoming X-Request-Id and replaces an unsafe one", async () => {
		const kept = await anonymous("/pets", {
			headers: { "x-request-id": "trace-abc_123" },
		});
		expect(kept.headers.get("x-request-id")).toBe("trace-abc_123");
		const replaced = await anonymous("/pets", {
			headers: { "x-request-id": "<script>" },
		});
		expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
	});

	it("answers CORS preflights and exposes the API's headers to browsers", async () => {
		const preflight = await anonymous("/store/orders", {
			method: "OPTIONS",
			headers: {
				origin: "https://shop.example",
				"access-control-request-method": "POST",
				"access-control-request-headers": "authorization, idempotency-key",
			},
		});
		expect(preflight.status).toBe(204);
		expect(preflight.headers.get("x-request-id")).toBeTruthy();
		expect(preflight.headers.get("x-content-type-options")).toBe("nosniff");
		expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
		expect(preflight.headers.get("access-control-allow-methods")).toContain(
			"POST",
		);
		expect(
			preflight.headers.get("access-control-allow-headers")?.toLowerCase(),
		).toContain("idempotency-key");

		const read = await anonymous("/pets", {
			headers: { origin: "https://shop.example" },
		});
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
		expect(response.headers.get("access-control-expose-headers")).toContain(
			"ETag",
		);
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
			expect(
				response.headers.get("access-control-expose-headers"),
				name,
			).toContain("X-Request-Id");
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
