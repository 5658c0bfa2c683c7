import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import type { Tool } from "@modelcontextprotocol/server";
import type { AppEnv } from "../env";
import { isWrite } from "../http/methods";
import { flagsOf } from "../http/route";
import type { Scope } from "../models/scopes";
import { documentFor } from "../openapi";

type Schema = { [keyword: string]: unknown };
type Schemas = Record<string, Schema>;
type Described = { description?: string; required?: boolean };
type Body = Described & { content?: { "application/json"?: { schema: Schema } } };
type Operation = {
	operationId?: string;
	summary?: string;
	description?: string;
	parameters?: Argument[];
	requestBody?: Body;
	responses: Record<string, Body>;
};
type Argument = Described & { name: string; in: Place; schema: Schema };

/** Where an argument goes: the part of the request the document's `in` names, or the body. */
export type Place = "path" | "query" | "header" | "body";

/** A tool: what `tools/list` shows, and what a call of it needs to run its route. */
export type ApiTool = {
	tool: Tool;
	route: RouteConfig;
	places: Record<string, Place>;
	scope?: Scope;
	withholdsSecret: boolean;
};

/** A secret never reaches a model's context: a tool answers without the operation's `secret`, and says where it is. */
const secretNote =
	"The answer leaves out `secret`, which is shown once over REST only (a new one by `POST /webhooks/{webhookId}/rotate-secret`): a secret never passes through a model's context.";

const cursorDescription = "The `nextCursor` of the previous page: omit it for the first page.";

const withoutSecret = ({ properties, required, ...schema }: Schema): Schema => {
	const { secret: _, ...kept } = properties as Record<string, Schema>;
	const left = (required as string[] | undefined)?.filter((name) => name !== "secret");
	return { ...schema, properties: kept, ...(left && { required: left }) };
};

/** What an output schema keeps: the shape of the answer, which clients validate; its words are the input's. */
const shape = new Set(["type", "properties", "required", "items", "enum", "anyOf", "allOf"]);

const propertiesOf = (schema: Schema) => (schema.properties ?? {}) as Record<string, Schema>;

/** `schema` as text, without the `enum` of its property `name`. */
const withoutEnum = (schema: Schema, name: string) => {
	const { enum: _, ...property } = propertiesOf(schema)[name];
	return JSON.stringify({ ...schema, properties: { ...propertiesOf(schema), [name]: property } });
};

/** `a` with the `enum` of the one property in which it differs from `b` widened; undefined unless that is all. */
const widened = (a: Schema, b: Schema) => {
	for (const [name, one] of Object.entries(propertiesOf(a))) {
		const other = propertiesOf(b)[name];
		const apart = one.enum && other?.enum && JSON.stringify(one) !== JSON.stringify(other);
		if (!apart || withoutEnum(a, name) !== withoutEnum(b, name)) continue;
		const property = { ...one, enum: [one.enum, other.enum].flat() };
		return { ...a, properties: { ...propertiesOf(a), [name]: property } };
	}
};

/** An output's branches, those differing in one property's `enum` alone merged: a client compiles each branch. */
const merged = (branches: Schema[]) => {
	const kept: Schema[] = [];
	for (const branch of branches) {
		const index = kept.findIndex((schema) => widened(schema, branch));
		if (index === -1) kept.push(branch);
		else kept[index] = widened(kept[index], branch) as Schema;
	}
	return kept;
};

/** Whether an object schema has the same properties as `first`: an `allOf` of such, for an output, is one. */
const sameObjects = (first: Schema) => (member: Schema) =>
	member.type === "object" &&
	JSON.stringify(propertiesOf(member)) === JSON.stringify(propertiesOf(first));

/** A document schema as plain JSON Schema: references inlined, `nullable` as a `null` branch, no OpenAPI words. */
const plain = (schema: Schema, components: Schemas, output = false): Schema => {
	const inline = (sub: unknown) => plain(sub as Schema, components, output);
	if (typeof schema.$ref === "string") {
		return inline(components[schema.$ref.split("/").pop() ?? ""]);
	}
	const { nullable, example: _, allOf = [], ...rest } = schema;
	// zod-to-openapi writes a default beside a reference as a member of `allOf` that constrains nothing, which
	// clients warn about: such a member's words go to the schema itself.
	const members = (allOf as Schema[]).filter((m) => "type" in m || "$ref" in m);
	const notes = (allOf as Schema[]).filter((m) => !members.includes(m));
	const inlined = members.map(inline);
	const converted: Schema =
		inlined.length === 1
			? inlined[0]
			: output && inlined.length > 1 && inlined.every(sameObjects(inlined[0]))
				? { ...inlined[0], required: [...new Set(inlined.flatMap((m) => m.required ?? []))] }
				: inlined.length
					? { allOf: inlined }
					: {};
	for (const [key, value] of Object.entries(Object.assign({}, ...notes, rest))) {
		const openApiWord = key.startsWith("x-") || (key === "format" && value === "int64");
		if (openApiWord || (output && !shape.has(key))) continue;
		converted[key] =
			key === "properties"
				? Object.fromEntries(Object.entries(value as Schema).map(([n, s]) => [n, inline(s)]))
				: key === "anyOf" || key === "oneOf"
					? (output ? merged : (branches: Schema[]) => branches)((value as unknown[]).map(inline))
					: key === "items" || (typeof value === "object" && key === "additionalProperties")
						? inline(value)
						: value;
	}
	return nullable ? { anyOf: [converted, { type: "null" }] } : converted;
};

const jsonOf = (body?: Body) => body?.content?.["application/json"]?.schema;

const toolOf = (route: RouteConfig, operation: Operation, schemas: Schemas): ApiTool => {
	const method = route.method.toUpperCase();
	const { lifecycle, errors = [], scope } = flagsOf(route) ?? {};
	const { deprecated, stability } = lifecycle ?? {};
	const { requestBody: body, responses } = operation;
	const schema = jsonOf(body);
	const args: Argument[] = [
		// A 304 has no body, and a result with an output schema needs one: `If-None-Match` is no argument.
		...(operation.parameters ?? []).filter((p) => p.name !== "If-None-Match"),
		...(schema ? [{ ...body, name: "body", in: "body" as const, schema }] : []),
	];
	const answered = jsonOf(responses[200] ?? responses[201]);
	const output = answered && plain(answered, schemas, true);
	const withholdsSecret = output !== undefined && "secret" in propertiesOf(output);
	const success = withholdsSecret ? withoutSecret(output) : output;
	// Its own refusals, beside those any tool may meet (the server's instructions name them).
	const refusals = [...(scope ? ["unauthorized", "forbidden"] : []), ...errors];
	const name = operation.operationId ?? `${method}_${route.path}`;
	const lifecycleNotes = [
		deprecated && `deprecated, sunset ${deprecated.sunset}`,
		stability && `stability: ${stability}`,
	].filter(Boolean);
	const lifecycleMeta = {
		...(deprecated && { deprecated: true, sunset: deprecated.sunset }),
		...(stability && { stability }),
	};
	const input = (arg: Argument) => {
		const paging = arg.name === "cursor" && arg.in === "query";
		const description = paging ? cursorDescription : arg.description;
		return { ...plain(arg.schema, schemas), ...(description && { description }) };
	};
	const refusal = { required: schemas.Error.required };
	const page = (schema: Schema) =>
		schema.type === "array"
			? {
					type: "object",
					properties: { items: schema, nextCursor: { type: "string" } },
					required: ["items"],
				}
			: schema;
	return {
		tool: {
			name: name.replace(/[^\w-]+/g, "_").slice(0, 64),
			title: operation.summary ?? name,
			description: [
				// The title is the tool's own field.
				lifecycleNotes.length > 0 && `${lifecycleNotes.join("; ")}.`,
				operation.description,
				withholdsSecret && secretNote,
				refusals.length > 0 && `May refuse: ${refusals.map((code) => `\`${code}\``).join(", ")}.`,
				`${method} ${route.path}`,
			]
				.filter(Boolean)
				.join("\n\n"),
			inputSchema: {
				type: "object",
				properties: Object.fromEntries(args.map((arg) => [arg.name, input(arg)])),
				required: args.filter((arg) => arg.required).map((arg) => arg.name),
				additionalProperties: false,
			},
			// Some clients (the Inspector) check a tool error, the `Error`, too: by the members it always has.
			...(success && { outputSchema: { type: "object", anyOf: [page(success), refusal] } }),
			annotations: {
				readOnlyHint: !isWrite(method),
				destructiveHint: method === "DELETE",
				// A create is idempotent only when the call passes an `Idempotency-Key`, which is optional.
				idempotentHint: ["GET", "PUT", "DELETE"].includes(method),
				openWorldHint: false,
			},
			...(lifecycleNotes.length > 0 && { _meta: { "petstore.example/operation": lifecycleMeta } }),
		},
		route,
		places: Object.fromEntries(args.map((arg) => [arg.name, arg.in])),
		scope,
		withholdsSecret,
	};
};

/** One tool per operation of the document, by name, in the order of the registry the document comes from. */
export const toolsOf = (app: OpenAPIHono<AppEnv>) => {
	const { paths = {}, components = {} } = app.getOpenAPIDocument(documentFor(app));
	const schemas = components.schemas as Schemas;
	const tools = new Map<string, ApiTool>();
	for (const definition of app.openAPIRegistry.definitions) {
		// Key operations are no tools: a key's secret would pass through a model's context.
		if (definition.type !== "route" || flagsOf(definition.route)?.scope === "keys:manage") continue;
		const { route } = definition;
		const item = paths[route.path] as Record<string, Operation>;
		const tool = toolOf(route, item[route.method], schemas);
		tools.set(tool.tool.name, tool);
	}
	return tools;
};
