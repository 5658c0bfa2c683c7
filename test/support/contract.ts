import { type Schema, Validator } from "@cfworker/json-schema";
import { expect } from "vitest";

/** The subset of OpenAPI 3.0 schema objects that the document uses. */
export type JsonSchema = {
	$ref?: string;
	allOf?: JsonSchema[];
	type?: "string" | "integer" | "number" | "boolean" | "object" | "array";
	enum?: unknown[];
	format?: string;
	minimum?: number;
	maximum?: number;
	minLength?: number;
	maxLength?: number;
	properties?: Record<string, JsonSchema>;
	required?: string[];
	items?: JsonSchema;
	example?: unknown;
	[keyword: string]: unknown;
};

type Content = { "application/json": { schema: JsonSchema; example?: unknown } };
type Header = { description: string; required?: boolean; schema: JsonSchema };
export type Parameter = {
	name: string;
	in: "path" | "query" | "header";
	required?: boolean;
	description?: string;
	schema: JsonSchema;
	example?: unknown;
};
export type Operation = {
	operationId: string;
	tags: string[];
	summary: string;
	description: string;
	deprecated?: boolean;
	security?: Record<string, string[]>[];
	parameters?: Parameter[];
	requestBody?: { required?: boolean; content: Content };
	responses: Record<
		string,
		{ description: string; headers?: Record<string, Header>; content?: Content }
	>;
	"x-codeSamples": { lang: string; label: string; source: string }[];
	[extension: `x-${string}`]: unknown;
};
type Tag = { name: string; description?: string; [extension: `x-${string}`]: unknown };

/** The served OpenAPI document, as the tests read it. */
export type Document = {
	openapi: string;
	info: { title: string; version: string; description: string };
	tags: Tag[];
	"x-tagGroups": { name: string; tags: string[] }[];
	paths: Record<string, Record<string, Operation>>;
	components: {
		schemas: Record<string, JsonSchema>;
		securitySchemes: Record<string, Record<string, unknown>>;
	};
};

/** Inlines `#/components/schemas/…` references: the document's schemas are not recursive. */
export const inlined = (schema: unknown, document: Document): unknown => {
	if (Array.isArray(schema)) return schema.map((item) => inlined(item, document));
	if (schema === null || typeof schema !== "object") return schema;
	// Examples are not validation keywords, and the validator would read their `id` fields as schema ids.
	const { $ref, example: _, ...rest } = schema as { $ref?: string; example?: unknown };
	if ($ref) {
		const name = $ref.replace("#/components/schemas/", "");
		return inlined(document.components.schemas[name], document);
	}
	const { nullable, ...schemaObject } = rest as { nullable?: boolean };
	const inlinedObject = Object.fromEntries(
		Object.entries(schemaObject).map(([key, value]) => [key, inlined(value, document)]),
	);
	// OpenAPI 3.0's `nullable` is JSON Schema's `null` type.
	return nullable && typeof inlinedObject.type === "string"
		? { ...inlinedObject, type: [inlinedObject.type, "null"] }
		: inlinedObject;
};

const templates = (document: Document) =>
	Object.keys(document.paths).map((template) => ({
		template,
		pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
	}));

/** Finds the operation a request is for, if the document has it. */
export const operationFor = (document: Document, method: string, pathname: string) => {
	const match = templates(document).find(({ pattern }) => pattern.test(pathname));
	const operation = match && document.paths[match.template][method.toLowerCase()];
	return operation && { template: match.template, operation };
};

const validators = new Map<Schema, Validator>();

/**
 * Asserts that a response is one its operation documents: the status, the headers that status always
 * carries, and the body against its schema. Requests the document does not describe pass through.
 */
export const expectDocumented = async (
	document: Document,
	method: string,
	url: string,
	response: Response,
) => {
	const found = operationFor(document, method, new URL(url).pathname);
	if (!found || method === "HEAD") return;
	const { template, operation } = found;
	const where = `${method} ${template} → ${response.status}`;
	const documented = operation.responses[String(response.status)];
	expect(documented, `${where} is not documented`).toBeDefined();
	const schema = documented.content?.["application/json"].schema as Schema | undefined;
	if (schema) {
		let validator = validators.get(schema);
		if (!validator) {
			validator = new Validator(inlined(schema, document) as Schema, "4", false);
			validators.set(schema, validator);
		}
		const body = await response.clone().json();
		const result = validator.validate(body);
		expect(result.errors, `${where}: ${JSON.stringify(body)}`).toEqual([]);
	} else {
		expect(await response.clone().text(), `${where} has no body`).toBe("");
	}
	for (const [name, header] of Object.entries(documented.headers ?? {})) {
		if (header.required) {
			expect(response.headers.get(name), `${where}: ${name}`).toBeTruthy();
		}
	}
};
