import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
	anonymous,
	type ErrorBody,
	type Pet,
	placeOrder,
	servedDocument,
	stockedPet,
	testApp,
} from "./support/api";
import { arbitraryOf, hostileValue } from "./support/arbitraries";
import type { Document } from "./support/contract";
import { watchedD1 } from "./support/d1";

/** Seeded and bounded for CI; `FUZZ_RUNS=5000 npm test -- fuzz` runs it longer. */
const runs = Number(env.FUZZ_RUNS);
const settings = { seed: 20261122, numRuns: runs, endOnFailure: true };

let doc: Document;
let pet: Pet;
let orderId: number;

/** What a write targets: its method and path template, a path to send it to, and where to read it back. */
type Target = {
	method: string;
	template: string;
	path: () => string;
	readBack?: (response: Response, sent: Record<string, unknown>) => string;
	/** The resource as the API should show it after the write was accepted. */
	expected?: (
		sent: Record<string, unknown>,
		before: Record<string, unknown> | undefined,
	) => Record<string, unknown>;
	/** Values that make a generated body point at resources that exist. */
	fix?: (body: Record<string, unknown>) => Record<string, unknown>;
};

const trimmedName = (body: Record<string, unknown>) =>
	typeof body.name === "string" ? { name: body.name.trim() } : {};

let unique = 0;
const targets: Record<string, Target> = {
	createPet: {
		method: "post",
		template: "/pets",
		path: () => "/pets",
		readBack: (response) => response.headers.get("location") ?? "",
		expected: (sent) => ({ status: "available", ...sent, ...trimmedName(sent) }),
		fix: (body) => ({ ...body, categoryId: pet.categoryId }),
	},
	replacePet: {
		method: "put",
		template: "/pets/{petId}",
		path: () => `/pets/${pet.id}`,
		readBack: () => `/pets/${pet.id}`,
		expected: (sent) => ({ id: pet.id, status: "available", ...sent, ...trimmedName(sent) }),
		fix: (body) => ({ ...body, categoryId: pet.categoryId }),
	},
	updatePet: {
		method: "patch",
		template: "/pets/{petId}",
		path: () => `/pets/${pet.id}`,
		readBack: () => `/pets/${pet.id}`,
		expected: (sent, before) => ({ ...before, ...sent, ...trimmedName(sent) }),
		fix: (body) => ("categoryId" in body ? { ...body, categoryId: pet.categoryId } : body),
	},
	createCategory: {
		method: "post",
		template: "/categories",
		path: () => "/categories",
		readBack: (response) => response.headers.get("location") ?? "",
		expected: (sent) => ({ ...sent, ...trimmedName(sent) }),
		// Names are unique: keep generated ones apart.
		fix: (body) => ({ ...body, name: `${String(body.name).trim().slice(0, 40)} ${++unique}` }),
	},
	placeOrder: {
		method: "post",
		template: "/store/orders",
		path: () => "/store/orders",
		readBack: (response) => response.headers.get("location") ?? "",
		expected: (sent) => ({ complete: false, ...sent }),
		fix: ({ shipDate, ...body }) => ({
			...body,
			petId: pet.id,
			...(shipDate === undefined ? {} : { shipDate }),
		}),
	},
	updateOrder: {
		method: "patch",
		template: "/store/orders/{orderId}",
		path: () => `/store/orders/${orderId}`,
	},
	setInventory: {
		method: "put",
		template: "/store/inventory/{petId}",
		path: () => `/store/inventory/${pet.id}`,
		readBack: () => `/store/inventory/${pet.id}`,
		expected: (sent) => ({ petId: pet.id, status: "available", ...sent }),
	},
};

const bodySchema = (target: Target) =>
	doc.paths[target.template][target.method].requestBody?.content["application/json"].schema ?? {};

const documentedStatuses = (target: Target) =>
	Object.keys(doc.paths[target.template][target.method].responses).map(Number);

/** The app over the real D1, watched: what each request changed is counted, however many rows any other file writes. */
const d1 = watchedD1(env.DB);
const watched = testApp({ bindings: { DB: d1.binding } });

const send = (target: Target, path: string, body: string, contentType = "application/json") =>
	watched.api(path, {
		method: target.method.toUpperCase(),
		headers: { "content-type": contentType },
		body,
	});

const read = async (path: string) => {
	const response = await anonymous(path);
	return response.status === 200 ? response.json<Record<string, unknown>>() : undefined;
};

/** An error is a well-formed `Error`, with a status this operation documents. */
const expectDocumentedError = async (target: Target, response: Response) => {
	expect(response.status).toBeLessThan(500);
	expect(documentedStatuses(target)).toContain(response.status);
	const body = await response.json<ErrorBody>();
	expect(body.status).toBe(response.status);
	expect(typeof body.code).toBe("string");
	expect(typeof body.message).toBe("string");
	for (const detail of body.details ?? []) {
		expect(typeof detail.path).toBe("string");
		expect(typeof detail.message).toBe("string");
	}
};

beforeAll(async () => {
	doc = await servedDocument();
});

// Each property writes to data of its own: what one left (a pet sold, an order completed) is no other's start.
beforeEach(async () => {
	pet = await stockedPet(1_000_000);
	orderId = (await (await placeOrder({ petId: pet.id, quantity: 1 })).json<{ id: number }>()).id;
});

const writable = Object.entries(targets).filter(([, target]) => target.expected);

describe("fuzzing with valid inputs", () => {
	it.each(writable)("%s accepts every valid body and stores exactly it", async (_, target) => {
		await fc.assert(
			fc.asyncProperty(
				arbitraryOf(bodySchema(target), doc.components.schemas) as fc.Arbitrary<
					Record<string, unknown>
				>,
				async (generated) => {
					const body = target.fix ? target.fix(generated) : generated;
					const path = target.path();
					const before = await read(path);
					const response = await send(target, path, JSON.stringify(body));
					expect(response.status, await response.clone().text()).toBeLessThan(300);
					const returned = await response.json<Record<string, unknown>>();
					const stored = await read(target.readBack?.(response, body) ?? path);
					expect(stored).toEqual(returned);
					expect(stored).toMatchObject(target.expected?.(body, before) ?? {});
				},
			),
			settings,
		);
	});
});

const hostileIds = fc.constantFrom(
	"0",
	"-1",
	"1e3",
	"0x1f",
	"9007199254740992",
	"99999999999999999999999",
	"abc",
	"%00",
	"1%20OR%201=1",
);

/** A request that may break any rule: fields removed, added or replaced, bodies broken, ids out of range. */
const hostileRequest = (target: Target) =>
	fc.record({
		body: arbitraryOf(bodySchema(target), doc.components.schemas).chain((valid) => {
			const fields = valid as Record<string, unknown>;
			const keys = Object.keys(fields);
			return fc.oneof(
				fc.constant(JSON.stringify(fields)),
				keys.length > 0
					? fc.constantFrom(...keys).map((key) => JSON.stringify({ ...fields, [key]: undefined }))
					: fc.constant("{}"),
				fc
					.tuple(keys.length > 0 ? fc.constantFrom(...keys) : fc.string(), hostileValue)
					.map(([key, value]) => JSON.stringify({ ...fields, [key]: value })),
				fc
					.tuple(fc.string({ maxLength: 10 }), hostileValue)
					.map(([key, value]) => JSON.stringify({ ...fields, [key]: value })),
				hostileValue.map((value) => JSON.stringify(value) ?? ""),
				fc.string({ unit: "binary", maxLength: 60 }),
				fc.constant(JSON.stringify(fields).slice(0, -1)),
			);
		}),
		contentType: fc.constantFrom(
			"application/json",
			"application/json",
			"application/json; charset=utf-8",
			"text/plain",
			"application/x-www-form-urlencoded",
		),
		id: fc.option(hostileIds, { freq: 4 }),
	});

describe("fuzzing with hostile inputs", () => {
	it.each(Object.entries(targets))(
		"%s never fails, never answers outside its documentation, never loses data",
		async (_, target) => {
			await fc.assert(
				fc.asyncProperty(hostileRequest(target), async ({ body, contentType, id }) => {
					const base = target.path();
					const path = id === null ? base : base.replace(/\/\d+$/, `/${id}`);
					const snapshot = await read(base);
					const before = d1.rowsChanged();
					const response = await send(target, path, body, contentType);
					if (response.status >= 400) {
						await expectDocumentedError(target, response);
						expect(d1.rowsChanged()).toBe(before);
						expect(await read(base)).toEqual(snapshot);
					} else {
						// A write that succeeded changed rows, and the count saw them.
						expect(d1.rowsChanged()).toBeGreaterThan(before);
						const returned = await response.json<Record<string, unknown>>();
						const readBack = target.readBack?.(response, {}) ?? base;
						expect(await read(readBack)).toEqual(returned);
					}
				}),
				settings,
			);
		},
	);

	it("reads never fail on hostile query strings", async () => {
		const lists = ["/pets", "/categories", "/store/orders", "/store/inventory"];
		await fc.assert(
			fc.asyncProperty(
				fc.constantFrom(...lists),
				fc.dictionary(
					fc.constantFrom(
						"limit",
						"cursor",
						"status",
						"name",
						"petId",
						"categoryId",
						"complete",
						"x",
					),
					fc.oneof(fc.string({ unit: "binary", maxLength: 30 }), hostileIds),
				),
				async (path, query) => {
					const response = await anonymous(`${path}?${new URLSearchParams(query)}`);
					if (response.status === 200) {
						expect(Array.isArray(await response.json())).toBe(true);
					} else {
						await expectDocumentedError(
							{ method: "get", template: path, path: () => path },
							response,
						);
					}
				},
			),
			settings,
		);
	});
});
