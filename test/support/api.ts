import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { createApp } from "../../src/app";
import type { Category } from "../../src/models/category";
import type { ErrorBody } from "../../src/models/error";
import type { InventoryItem } from "../../src/models/inventory";
import type { Pet } from "../../src/models/pet";
import { type Document, expectDocumented } from "./contract";

export const origin = "http://petstore.test";

/** The first of the tokens vitest.config.ts configures. */
export const token = env.API_TOKEN.split(",")[0];

/**
 * The instant every test's app stands at unless the test names another: after getPetById's deprecation
 * (2026-11-20), before its sunset (2027-06-30). No test depends on today's date.
 */
export const testNow = Date.parse("2027-01-01T00:00:00Z");

/**
 * The Worker's app, its clock standing at `now`, over the test bindings with some of them replaced, and the ways
 * a test talks to it. Every response but `request`'s is checked against the document: every response of every
 * test is held to the contract.
 */
export const testApp = ({
	now = testNow,
	bindings = {},
	credential = token,
}: {
	now?: number;
	bindings?: Partial<Env>;
	/** What `api` and `send` authorise with: an API key, or (unless told) the root token. */
	credential?: string;
} = {}) => {
	const app = createApp({ now: () => now });
	/** Sends a request as it is, to `origin` when `input` is a path; answers once its background work is done. */
	const request = async (input: string | Request, init?: RequestInit) => {
		const ctx = createExecutionContext();
		const response = await app.request(
			typeof input === "string" && input.startsWith("/") ? `${origin}${input}` : input,
			init,
			{ ...env, ...bindings },
			ctx,
		);
		await waitOnExecutionContext(ctx);
		return response;
	};
	/** Sends a request with no credentials. */
	const anonymous = async (path: string, init?: RequestInit) => {
		const url = `${origin}${path}`;
		const response = await request(url, init);
		await expectDocumented(await servedDocument(), init?.method ?? "GET", url, response);
		return response;
	};
	/** Sends a request as an authorised client. */
	const api = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
		anonymous(path, {
			...init,
			headers: { authorization: `Bearer ${credential}`, ...init.headers },
		});
	/** Sends an authorised request with a JSON body. */
	const send = (
		method: string,
		path: string,
		body: unknown,
		headers: Record<string, string> = {},
	) =>
		api(path, {
			method,
			headers: { "content-type": "application/json", ...headers },
			body: JSON.stringify(body),
		});
	return { request, anonymous, api, send };
};

const app = testApp();

let document: Promise<Document> | undefined;
/** The document the app serves, fetched once per test file. */
export const servedDocument = () => {
	document ??= app.request("/doc").then((response) => response.json<Document>());
	return document;
};

/** The app at {@link testNow} over the test bindings: what most tests talk to. */
export const { anonymous, api, send } = app;

// The API's own types: what tests read is what the document promises.
export type { Category } from "../../src/models/category";
export type { ErrorBody } from "../../src/models/error";
export type { InventoryItem } from "../../src/models/inventory";
export type { Order } from "../../src/models/order";
export type { Pet } from "../../src/models/pet";

/** Asserts that the response is the uniform `Error` for `code`, and returns its body. */
export const expectError = async (response: Response, status: number, code: string) => {
	expect(response.headers.get("content-type")).toMatch(/^application\/json/);
	const body = await response.json<ErrorBody>();
	expect({ httpStatus: response.status, ...body }).toMatchObject({
		httpStatus: status,
		status,
		code,
		message: expect.any(String),
	});
	expect(["code", "message", "status", "details"]).toEqual(
		expect.arrayContaining(Object.keys(body)),
	);
	return body;
};

/** The `next` target of an RFC 8288 `Link` header, if any. */
export const nextLink = (response: Response) =>
	response.headers.get("link")?.match(/<([^>]+)>;\s*rel="next"/)?.[1];

/** Follows `Link: rel="next"` from `path` to the last page, calling `between` after each page. */
export const collectPages = async <T>(
	path: string,
	between: () => Promise<void> = async () => {},
) => {
	const items: T[] = [];
	const pages: number[] = [];
	let next: string | undefined = path;
	while (next) {
		const response = await api(next);
		expect(response.status).toBe(200);
		const page = await response.json<T[]>();
		items.push(...page);
		pages.push(page.length);
		next = nextLink(response);
		await between();
	}
	return { items, pages };
};

let unique = 0;
/** A name no other test in this file uses. */
/**
 * Waits, when a minute turns within `seconds`, for the next one: the simulated Rate Limiting binding counts per
 * minute of the clock, so a budget a test spends across the turn would be counted in two windows.
 */
export const inOneRateWindow = async (seconds = 3) => {
	const left = 60_000 - (Date.now() % 60_000);
	if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
};

export const uniqueName = (prefix: string) => `${prefix} ${++unique}`;

export const createCategory = async (name = uniqueName("Category")) => {
	const response = await send("POST", "/categories", { name });
	expect(response.status).toBe(201);
	return response.json<Category>();
};

export const createPet = async (
	categoryId: number,
	fields: Partial<Omit<Pet, "id" | "categoryId">> = {},
) => {
	const response = await send("POST", "/pets", { name: uniqueName("Pet"), categoryId, ...fields });
	expect(response.status).toBe(201);
	return response.json<Pet>();
};

/** A new pet, in a new category, with `stock` units in stock. */
export const stockedPet = async (
	stock: number,
	fields: Partial<Omit<Pet, "id" | "categoryId">> = {},
) => {
	const pet = await createPet((await createCategory()).id, fields);
	const response = await send("PUT", `/store/inventory/${pet.id}`, { quantity: stock });
	expect(response.status).toBe(200);
	return pet;
};

/** The pet's units in stock, or null when it has no inventory item. */
export const stockOf = async (petId: number) => {
	const response = await api(`/store/inventory/${petId}`);
	if (response.status === 404) return null;
	expect(response.status).toBe(200);
	return (await response.json<InventoryItem>()).quantity;
};

export const placeOrder = (order: Record<string, unknown>, idempotencyKey?: string) =>
	api("/store/orders", {
		method: "POST",
		headers: {
			"content-type": "application/json",
			...(idempotencyKey && { "idempotency-key": idempotencyKey }),
		},
		body: JSON.stringify(order),
	});
