import { env } from "cloudflare:workers";
import { type Schema, Validator } from "@cfworker/json-schema";
import { describe, expect, it, vi } from "vitest";
import { createApp } from "../src/app";
import { eventTypes } from "../src/models/event-types";
import { api, testApp } from "./support/api";
import { type Document, inlined, type JsonSchema, type Operation } from "./support/contract";

const document = async () => {
	const response = await api("/doc");
	expect(response.status).toBe(200);
	expect(response.headers.get("content-type")).toMatch(/^application\/json/);
	return response.json<Document>();
};

const operations = (doc: Document) =>
	Object.entries(doc.paths).flatMap(([path, methods]) =>
		Object.entries(methods).map(([method, operation]) => ({ path, method, ...operation })),
	);

const maxId = 2 ** 53 - 1;
const int64 = { type: "integer", format: "int64", minimum: 1, maximum: maxId };

describe("GET /doc", () => {
	it("is an OpenAPI 3.0.3 document of version 1.0.0 that does not list itself", async () => {
		const doc = await document();
		expect(doc.openapi).toBe("3.0.3");
		expect(doc.info.version).toBe("1.0.0");
		expect(doc.paths["/doc"]).toBeUndefined();
	});

	it("names every model of the contract as a component schema, with its bounds", async () => {
		const { schemas } = (await document()).components;
		expect(schemas.PetStatus).toMatchObject({
			type: "string",
			enum: ["available", "pending", "sold"],
		});
		expect(schemas.NewPet).toMatchObject({
			required: ["name", "categoryId"],
			additionalProperties: false,
			properties: {
				name: { type: "string", minLength: 1, maxLength: 100 },
				categoryId: int64,
				status: { $ref: "#/components/schemas/PetStatus" },
			},
		});
		expect(schemas.NewPet.description).toContain("`status` is `available` unless given");
		expect(schemas.Pet).toMatchObject({
			required: ["id", "name", "categoryId", "status"],
			properties: { id: int64 },
		});
		expect(schemas.Pets).toMatchObject({
			type: "array",
			items: { $ref: "#/components/schemas/Pet" },
		});
		expect(schemas.NewCategory).toMatchObject({
			required: ["name"],
			properties: {
				name: { type: "string", minLength: 1, maxLength: 50 },
				description: { type: "string", maxLength: 500 },
			},
		});
		expect(schemas.Category).toMatchObject({ required: ["id", "name"], properties: { id: int64 } });
		expect(schemas.Error).toMatchObject({
			required: ["code", "message", "status"],
			properties: {
				code: { type: "string" },
				message: { type: "string" },
				status: { type: "integer" },
				details: { type: "array", items: { $ref: "#/components/schemas/ErrorDetail" } },
			},
		});
	});

	it("names the store's models with their bounds", async () => {
		const { schemas } = (await document()).components;
		expect(schemas.Order).toMatchObject({
			type: "object",
			properties: {
				id: int64,
				petId: int64,
				quantity: { type: "integer", minimum: 1, maximum: 1000 },
				shipDate: { type: "string", format: "date-time" },
				complete: { type: "boolean" },
			},
		});
		expect(schemas.Order.required).toBeUndefined();
		expect(schemas.InventoryItem).toMatchObject({
			required: ["petId", "quantity", "status"],
			properties: {
				petId: int64,
				quantity: { type: "integer", minimum: 0, maximum: 1_000_000 },
				status: { $ref: "#/components/schemas/PetStatus" },
			},
		});
		expect(schemas.InventoryUpdate).toMatchObject({
			required: ["quantity"],
			properties: { quantity: { type: "integer", minimum: 0, maximum: 1_000_000 } },
		});
		expect(schemas.NewOrder).toMatchObject({
			required: ["petId", "quantity"],
			additionalProperties: false,
		});
	});

	it("marks stability and the hidden try-it panel on the store operations", async () => {
		const doc = await document();
		const stability = Object.fromEntries(
			operations(doc).map((operation) => [
				operation.operationId,
				(operation as Record<string, unknown>)["x-stability"],
			]),
		);
		expect(stability).toMatchObject({
			listInventory: "beta",
			getInventoryItem: "beta",
			setInventory: "experimental",
			listPets: undefined,
			placeOrder: undefined,
		});
		expect(doc.paths["/store/orders"].get).toMatchObject({ "x-hideTryItPanel": true });
	});

	it("gives every operation an operationId, a tag and documented errors", async () => {
		const all = operations(await document());
		expect(all.map((operation) => operation.operationId).sort()).toEqual(
			expect.arrayContaining([
				"createCategory",
				"createPet",
				"deleteCategory",
				"deletePet",
				"getCategoryById",
				"getPetById",
				"listCategories",
				"listPets",
				"replaceCategory",
				"replacePet",
				"updateCategory",
				"updatePet",
				"listOrders",
				"placeOrder",
				"getOrderById",
				"updateOrder",
				"cancelOrder",
				"listInventory",
				"getInventoryItem",
				"setInventory",
			]),
		);
		for (const operation of all) {
			expect(operation.tags?.length, operation.path).toBeGreaterThan(0);
			const errors = Object.entries(operation.responses).filter(
				([status]) => Number(status) >= 400,
			);
			expect(errors.map(([status]) => status)).toContain("500");
			for (const [, response] of errors) {
				expect(response.content?.["application/json"]?.schema).toEqual({
					$ref: "#/components/schemas/Error",
				});
			}
		}
	});

	it("documents the headers of every response: X-Request-Id, and those of 401 and 429", async () => {
		type Header = { required?: boolean; schema: { type: string } };
		for (const operation of operations(await document())) {
			const responses = operation.responses as Record<string, { headers?: Record<string, Header> }>;
			for (const [status, response] of Object.entries(responses)) {
				expect(
					response.headers?.["X-Request-Id"],
					`${operation.operationId} ${status}`,
				).toMatchObject({ required: true });
			}
			if (operation.method === "get") continue;
			expect(responses[401].headers?.["WWW-Authenticate"]).toMatchObject({ required: true });
			expect(responses[429].headers?.["Retry-After"]).toMatchObject({
				required: true,
				schema: { type: "integer" },
			});
			expect(responses, operation.operationId).toHaveProperty("413");
		}
	});

	it("describes every operation, with an example for each request body", async () => {
		const doc = await document();
		const { schemas } = doc.components;
		for (const operation of operations(doc) as (ReturnType<typeof operations>[number] & {
			summary?: string;
			description?: string;
			requestBody?: { content: { "application/json": { schema: { $ref: string } } } };
		})[]) {
			const where = `${operation.method} ${operation.path}`;
			expect(operation.summary, where).toBeTruthy();
			expect(operation.description, where).toBeTruthy();
			const body = operation.requestBody?.content["application/json"].schema;
			if (body) {
				const name = body.$ref.replace("#/components/schemas/", "");
				expect(schemas[name].example, where).toBeDefined();
			}
		}
	});

	it("names each request body's schema: the contract's models for creates and replaces, a patch of its own", async () => {
		const doc = await document();
		const bodies = Object.fromEntries(
			(
				operations(doc) as (ReturnType<typeof operations>[number] & {
					operationId: string;
					requestBody?: { content: { "application/json": { schema: { $ref: string } } } };
				})[]
			).flatMap(({ operationId, requestBody }) =>
				requestBody ? [[operationId, requestBody.content["application/json"].schema.$ref]] : [],
			),
		);
		expect(bodies).toMatchObject({
			createPet: "#/components/schemas/NewPet",
			replacePet: "#/components/schemas/NewPet",
			updatePet: "#/components/schemas/PetPatch",
			createCategory: "#/components/schemas/NewCategory",
			replaceCategory: "#/components/schemas/NewCategory",
			updateCategory: "#/components/schemas/CategoryPatch",
			placeOrder: "#/components/schemas/NewOrder",
			updateOrder: "#/components/schemas/OrderPatch",
			setInventory: "#/components/schemas/InventoryUpdate",
		});
	});

	it("groups every tag under a group that carries no operation, the same in x-parent and x-tagGroups", async () => {
		const doc = await document();
		expect(doc.tags.every((tag) => tag.description)).toBe(true);
		const groups = doc.tags.filter((tag) => tag["x-parent"] === undefined).map((tag) => tag.name);
		const children = doc.tags.filter((tag) => tag["x-parent"] !== undefined);
		expect(doc["x-tagGroups"]).toEqual(
			groups.map((name) => ({
				name,
				tags: children.filter((tag) => tag["x-parent"] === name).map((tag) => tag.name),
			})),
		);
		const used = new Set(operations(doc).flatMap((operation) => operation.tags));
		expect(groups.filter((name) => used.has(name))).toEqual([]);
		expect(children.map((tag) => tag.name).filter((name) => !used.has(name))).toEqual([]);
		// The contract's own grouping.
		expect(doc["x-tagGroups"]).toEqual(
			expect.arrayContaining([
				{ name: "Pets", tags: expect.arrayContaining(["Animals", "Categories"]) },
				{ name: "Store", tags: expect.arrayContaining(["Orders", "Inventory"]) },
			]),
		);
	});

	it("documents path ids as int64 within the range a client can hold", async () => {
		const doc = await document();
		expect(doc.paths["/pets/{petId}"].get.parameters).toContainEqual(
			expect.objectContaining({ name: "petId", schema: expect.objectContaining(int64) }),
		);
	});
});

describe("building the document", () => {
	it("builds the document once and serves the same bytes every time", async () => {
		const app = createApp();
		const build = vi.spyOn(app, "getOpenAPIDocument");
		const doc = async () => (await app.request("/doc", {}, env)).text();
		const first = await doc();
		const second = await doc();
		expect(build).toHaveBeenCalledTimes(1);
		expect(second).toBe(first);
	});
});

describe("a document that client generators and renderers read right", () => {
	it("keeps the seed Order exact, and has every response require what it carries, in a member of its own", async () => {
		const doc = await document();
		const seed = doc.components.schemas.Order;
		expect(seed.required).toBeUndefined();
		const fields = ["id", "petId", "quantity", "shipDate", "complete"];
		// hey-api drops a `required` beside an `allOf`, and one whose member lacks the properties it names.
		const carried = {
			allOf: [
				{ $ref: "#/components/schemas/Order" },
				{ type: "object", properties: seed.properties, required: fields },
			],
		};
		const orders = doc.paths["/store/orders"];
		const order = doc.paths["/store/orders/{orderId}"];
		for (const schema of [
			orders.post.responses[201].content?.["application/json"].schema,
			order.get.responses[200].content?.["application/json"].schema,
			order.patch.responses[200].content?.["application/json"].schema,
			doc.components.schemas.Orders.items,
			doc.components.schemas.OrderPlacedEvent.properties?.data,
		]) {
			expect(schema).toMatchObject(carried);
			expect(schema).not.toHaveProperty("required");
		}
	});

	it("requires the data of every event type", async () => {
		const { Event, ...schemas } = (await document()).components.schemas;
		const members = ((Event.oneOf ?? Event.anyOf) as JsonSchema[]).map(
			({ $ref = "" }) => schemas[$ref.replace("#/components/schemas/", "")],
		);
		expect(members).toHaveLength(eventTypes.length);
		for (const member of members) {
			expect(member.required, String(member.description)).toContain("data");
		}
	});

	it("gives every parameter but the cursor, every request body and response body an example its schema accepts", async () => {
		const doc = await document();
		const checked: string[] = [];
		const expectValid = (where: string, schema: JsonSchema, example: unknown) => {
			expect(example, `${where} has no example`).toBeDefined();
			const validator = new Validator(inlined(schema, doc) as Schema, "4", false);
			expect(validator.validate(example).errors, where).toEqual([]);
			checked.push(where);
		};
		for (const operation of operations(doc)) {
			const at = `${operation.method} ${operation.path}`;
			// A cursor is issued by the server alone: any fixed example would be refused.
			for (const parameter of (operation.parameters ?? []).filter(
				({ name }) => name !== "cursor",
			)) {
				expectValid(`${at} ${parameter.name}`, parameter.schema, parameter.example);
			}
			const body = operation.requestBody?.content["application/json"];
			if (body) expectValid(`${at} body`, body.schema, body.example);
			for (const [status, response] of Object.entries(operation.responses)) {
				const content = response.content?.["application/json"];
				if (content) expectValid(`${at} ${status}`, content.schema, content.example);
			}
		}
		expect(checked.length).toBeGreaterThan(150);
	});

	it("names every tag for GitBook and Scalar, groups included", async () => {
		const doc = await document();
		for (const tag of doc.tags) {
			expect(tag, tag.name).toMatchObject({
				"x-displayName": expect.any(String),
				"x-page-title": expect.any(String),
				"x-page-description": tag.description,
				"x-page-icon": expect.stringMatching(/^[a-z-]+$/),
			});
		}
	});

	it("says what each pet status means for ordering", async () => {
		const { PetStatus } = (await document()).components.schemas;
		expect(Object.keys(PetStatus["x-enumDescriptions"] as object)).toEqual(PetStatus.enum);
	});

	it("names the token GitBook asks for on the bearer scheme", async () => {
		const doc = await document();
		expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
			"x-gitbook-token-placeholder": "API_TOKEN",
		});
	});

	it("gives every operation a curl command and a hono/client call to the origin serving it, with a token placeholder where it needs one", async () => {
		const deployed = "https://petstore.example.com";
		const response = await testApp().request(`${deployed}/doc`);
		for (const operation of operations(await response.json<Document>())) {
			const samples = operation["x-codeSamples"];
			expect(samples.map((sample) => sample.label)).toEqual(["curl", "hono/client"]);
			const secured = (operation.security ?? []).length > 0;
			const [curl, client] = samples.map((sample) => sample.source);
			expect(curl).toMatch(/^curl -X [A-Z]+ 'https:\/\/petstore\.example\.com\//);
			expect(curl.includes('-H "Authorization: Bearer $API_TOKEN"')).toBe(secured);
			expect(client).toContain(`hc<AppType>("${deployed}"`);
			expect(client.includes("process.env.API_TOKEN")).toBe(secured);
			for (const source of [curl, client]) {
				expect(source).not.toMatch(/localhost|petstore-dev-token|\{origin\}/);
			}
		}
	});

	it("puts each request's own origin into the samples of the document it keeps", async () => {
		const app = testApp();
		for (const origin of ["http://127.0.0.1:8787", "https://api.example"]) {
			const text = await (await app.request(`${origin}/doc`)).text();
			expect(text).toContain(`curl -X GET '${origin}/pets`);
		}
	});

	it("names the origin it was served from as its server, so that an import (Postman, Insomnia) runs as it is", async () => {
		const app = testApp();
		for (const origin of ["http://127.0.0.1:8787", "https://api.example"]) {
			const { servers } = await (await app.request(`${origin}/doc`)).json<{
				servers: { url: string }[];
			}>();
			expect(servers.map(({ url }) => url)).toEqual([origin]);
		}
	});
});

describe("the Error code list", () => {
	it("names every code the API answers with, webhook_limit included, with its status", async () => {
		const { description } = (await document()).components.schemas.Error.properties?.code ?? {
			description: "",
		};
		for (const [code, status] of [
			["webhook_limit", 409],
			["validation_error", 400],
			["unavailable", 503],
		]) {
			expect(description).toContain(`\`${code}\` (${status})`);
		}
	});
});

describe("the webhook payloads", () => {
	it("are documented as callbacks of createWebhook, carrying an Event", async () => {
		const doc = await document();
		const { callbacks } = doc.paths["/webhooks"].post as {
			callbacks?: Record<string, Record<string, { post: Operation }>>;
		};
		const delivery = callbacks?.event?.["{$request.body#/url}"]?.post;
		expect(delivery?.requestBody?.content["application/json"].schema).toEqual({
			$ref: "#/components/schemas/Event",
		});
		expect(doc.components.schemas.Event.oneOf ?? doc.components.schemas.Event.anyOf).toHaveLength(
			eventTypes.length,
		);
	});
});
