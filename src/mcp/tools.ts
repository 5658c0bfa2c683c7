import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import type { Tool } from "@modelcontextprotocol/server";
import type { AppEnv } from "../env";
import { isWrite } from "../http/methods";
import { flagsOf } from "../http/route";
import { documentConfig } from "../openapi";

type Schema = { [keyword: string]: unknown };
type Body = {
	description?: string;
	required?: boolean;
	content?: { "application/json"?: { schema: Schema } };
};
/** What the document says of an operation. */
type Operation = {
	operationId?: string;
	summary?: string;
	description?: string;
	parameters?: Argument[];
	requestBody?: Body;
	responses: Record<string, Body>;
};
type Argument = {
	name: string;
	in: Place;
	required?: boolean;
	description?: string;
	schema: Schema;
};

/** Where an argument goes: the part of the request the document's `in` names, or the body. */
export type Place = "path" | "query" | "header" | "body";

/** An MCP tool (its `tools/list` entry), the route a call of it requests, and where each argument goes. */
export type ApiTool = { tool: Tool; route: RouteConfig; places: Record<string, Place> };

/** Where a tool's `_meta` says what the route declares: the HTTP operation and its lifecycle. */
const metaKey = "petstore.example/operation";

/**
 * A schema of the document as plain JSON Schema, which every client and model provider takes: references
 * inlined, `nullable` as a `null` branch of `anyOf` (never a list of types), OpenAPI's own words left out.
 */
const plain = (schema: Schema, components: Record<string, Schema>): Schema => {
	const inline = (sub: unknown) => plain(sub as Schema, components);
	if (typeof schema.$ref === "string") {
		return inline(components[schema.$ref.split("/").pop() ?? ""]);
	}
	const { nullable, example: _, allOf = [], ...rest } = schema;
	// zod-to-openapi writes a default beside a reference as a member of `allOf` that constrains nothing, which
	// clients warn about: such a member's words go to the schema itself.
	const members = (allOf as Schema[]).filter((m) => "type" in m || "$ref" in m);
	const notes = (allOf as Schema[]).filter((m) => !members.includes(m));
	const converted: Schema =
		members.length === 1
			? inline(members[0])
			: members.length
				? { allOf: members.map(inline) }
				: {};
	for (const [key, value] of Object.entries(Object.assign({}, ...notes, rest))) {
		if (key.startsWith("x-") || (key === "format" && value === "int64")) {
			continue;
		}
		converted[key] =
			key === "properties"
				? Object.fromEntries(Object.entries(value as Schema).map(([n, s]) => [n, inline(s)]))
				: key === "anyOf" || key === "oneOf"
					? (value as unknown[]).map(inline)
					: key === "items" || (typeof value === "object" && key === "additionalProperties")
						? inline(value)
						: value;
	}
	return nullable ? { anyOf: [converted, { type: "null" }] } : converted;
};

const jsonOf = (body?: Body) => body?.content?.["application/json"]?.schema;

/** The MCP tool that stands for one operation of the document. */
const toolOf = (
	route: RouteConfig,
	operation: Operation,
	inline: (schema: Schema) => Schema,
): ApiTool => {
	const method = route.method.toUpperCase();
	const { lifecycle } = flagsOf(route) ?? {};
	const { deprecated, stability } = lifecycle ?? {};
	const { requestBody: body, responses } = operation;
	const schema = jsonOf(body);
	const args: Argument[] = [
		// A 304 has no body, and a result with an output schema needs one: `If-None-Match` is no argument.
		...(operation.parameters ?? []).filter((p) => p.name !== "If-None-Match"),
		...(schema ? [{ ...body, name: "body", in: "body" as const, schema }] : []),
	];
	const success = jsonOf(responses[200] ?? responses[201]);
	const error = Object.entries(responses).find(
		([status, response]) => status >= "400" && jsonOf(response),
	)?.[1];
	const name = operation.operationId ?? `${method}_${route.path}`;
	const title = operation.summary ?? name;
	const lifecycleNotes = [
		deprecated && `deprecated, sunset ${deprecated.sunset}`,
		stability && `stability: ${stability}`,
	].filter(Boolean);
	const page = (schema: Schema) =>
		schema.type === "array"
			? {
					type: "object",
					properties: {
						items: schema,
						nextCursor: {
							type: "string",
							description: "The `cursor` of the next page; absent on the last.",
						},
					},
					required: ["items"],
				}
			: schema;
	return {
		tool: {
			name: name.replace(/[^\w-]+/g, "_").slice(0, 64),
			title,
			description: [
				`${title}${lifecycleNotes.length ? ` (${lifecycleNotes.join("; ")})` : ""}.`,
				operation.description,
				`${method} ${route.path}`,
			]
				.filter(Boolean)
				.join("\n\n"),
			inputSchema: {
				type: "object",
				properties: Object.fromEntries(
					args.map((arg) => [
						arg.name,
						{ ...inline(arg.schema), ...(arg.description && { description: arg.description }) },
					]),
				),
				required: args.filter((arg) => arg.required).map((arg) => arg.name),
				additionalProperties: false,
			},
			...(success && {
				outputSchema: {
					type: "object",
					anyOf: [page(inline(success)), ...(error ? [inline(jsonOf(error) ?? {})] : [])],
				},
			}),
			annotations: {
				title,
				readOnlyHint: !isWrite(method),
				destructiveHint: method === "DELETE",
				// A create is idempotent only when the call passes an `Idempotency-Key`, which is optional.
				idempotentHint: ["GET", "PUT", "DELETE"].includes(method),
				openWorldHint: false,
			},
			_meta: {
				[metaKey]: {
					method,
					path: route.path,
					...(deprecated && { deprecated: true, sunset: deprecated.sunset }),
					...(stability && { stability }),
				},
			},
		},
		route,
		places: Object.fromEntries(args.map((arg) => [arg.name, arg.in])),
	};
};

/** One tool per operation of the document, by name, in the order of the registry the document comes from. */
export const toolsOf = (app: OpenAPIHono<AppEnv>) => {
	const { paths = {}, components = {} } = app.getOpenAPIDocument(documentConfig);
	const inline = (schema: Schema) => plain(schema, components.schemas as Record<string, Schema>);
	return new Map(
		app.openAPIRegistry.definitions.flatMap((definition) => {
			if (definition.type !== "route") return [];
			const { route } = definition;
			const item = paths[route.path] as Record<string, Operation>;
			const tool = toolOf(route, item[route.method], inline);
			return [[tool.tool.name, tool] as const];
		}),
	);
};
