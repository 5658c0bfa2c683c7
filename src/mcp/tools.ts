import { type RouteConfig, z } from "@hono/zod-openapi";

/** A JSON Schema object, as MCP carries it. */
type JsonSchema = { [key: string]: unknown };

/** How a tool's arguments become the HTTP request of its operation. */
export type Operation = {
	method: string;
	/** The path template of the document, `{name}` for each path parameter. */
	path: string;
	params: string[];
	query: string[];
	headers: string[];
	body: boolean;
};

/** An MCP tool (its `tools/list` entry) and the operation a call of it sends. */
export type ApiTool = {
	tool: {
		name: string;
		title: string;
		description: string;
		inputSchema: JsonSchema & { type: "object" };
		outputSchema?: JsonSchema & { type: "object" };
		annotations: {
			title: string;
			readOnlyHint: boolean;
			destructiveHint: boolean;
			idempotentHint: boolean;
			openWorldHint: false;
		};
		_meta: Record<string, unknown>;
	};
	operation: Operation;
};

/** Where a tool's `_meta` says what the route declares: the HTTP operation and its lifecycle. */
export const metaKey = "petstore.example/operation";

/** The header a tool cannot use: a 304 has no body, and a tool result with an output schema needs one. */
const unusable = new Set(["If-None-Match"]);

const jsonSchema = (schema: unknown, io: "input" | "output"): JsonSchema => {
	const { $schema: _, ...rest } = z.toJSONSchema(schema as z.ZodType, {
		io,
		unrepresentable: "any",
	}) as JsonSchema;
	return rest;
};

const propertiesOf = (schema: unknown) => {
	if (!schema) return { properties: {}, required: [] };
	const { properties = {}, required = [] } = jsonSchema(schema, "input") as {
		properties?: Record<string, JsonSchema>;
		required?: string[];
	};
	return { properties, required };
};

/** A request body or a response, as far as its content goes. */
type Declared = { content?: { [type: string]: unknown } } | undefined;

/** The zod schema of a request body's or a response's JSON content. */
const jsonOf = (declared: Declared) =>
	(declared?.content?.["application/json"] as { schema?: unknown } | undefined)
		?.schema;

/** A list answers an array; a tool's structured content is an object, so it holds the page and the next cursor. */
const asObject = (schema: JsonSchema): JsonSchema =>
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

/** The success (200 or 201) and, since a tool error carries the `Error`, the answer of a failed call. */
const outputSchema = ({ responses }: RouteConfig) => {
	const success = jsonOf((responses["200"] ?? responses["201"]) as Declared);
	if (!success) return undefined;
	const error = Object.entries(responses)
		.filter(([status]) => status >= "400")
		.map(([, response]) => jsonOf(response as Declared))
		.find(Boolean);
	return {
		type: "object" as const,
		anyOf: [
			asObject(jsonSchema(success, "output")),
			...(error ? [jsonSchema(error, "output")] : []),
		],
	};
};

/** The description's first words: the lifecycle that the document states with `deprecated` and `x-stability`. */
const markers = (route: RouteConfig & { [key: `x-${string}`]: unknown }) =>
	[
		route.deprecated && `deprecated, sunset ${route["x-deprecated-sunset"]}`,
		route["x-stability"] && `stability: ${route["x-stability"]}`,
	].filter(Boolean);

/** The MCP tool that stands for one operation of the document. */
export const toolOf = (
	route: RouteConfig & { [key: `x-${string}`]: unknown },
): ApiTool => {
	const { request = {}, method } = route;
	const params = propertiesOf(request.params);
	const query = propertiesOf(request.query);
	const headers = propertiesOf(request.headers);
	for (const name of unusable) delete headers.properties[name];
	const body = jsonOf(request.body);
	const name = route.operationId ?? `${method} ${route.path}`;
	const title = route.summary ?? name;
	const lifecycle = markers(route);
	const output = outputSchema(route);
	return {
		tool: {
			name,
			title,
			description: [
				`${title}${lifecycle.length ? ` (${lifecycle.join("; ")})` : ""}.`,
				route.description,
				`${method.toUpperCase()} ${route.path}`,
			]
				.filter(Boolean)
				.join("\n\n"),
			inputSchema: {
				type: "object",
				properties: {
					...params.properties,
					...query.properties,
					...headers.properties,
					...(body ? { body: jsonSchema(body, "input") } : {}),
				},
				required: [
					...params.required,
					...query.required,
					...headers.required,
					...(body && request.body?.required !== false ? ["body"] : []),
				],
			},
			...(output && { outputSchema: output }),
			annotations: {
				title,
				readOnlyHint: method === "get",
				destructiveHint: method === "delete",
				idempotentHint:
					method === "get" ||
					method === "put" ||
					method === "delete" ||
					"Idempotency-Key" in headers.properties,
				openWorldHint: false,
			},
			_meta: {
				[metaKey]: {
					method: method.toUpperCase(),
					path: route.path,
					...(route.deprecated && {
						deprecated: true,
						sunset: route["x-deprecated-sunset"],
					}),
					...(route["x-stability"] ? { stability: route["x-stability"] } : {}),
				},
			},
		},
		operation: {
			method: method.toUpperCase(),
			path: route.path,
			params: Object.keys(params.properties),
			query: Object.keys(query.properties),
			headers: Object.keys(headers.properties),
			body: body !== undefined,
		},
	};
};

/** One tool per operation of the registry that the document is generated from. */
export const toolsOf = (
	definitions: readonly { type: string; route?: RouteConfig }[],
) =>
	definitions.flatMap((definition) =>
		definition.type === "route" && definition.route
			? [toolOf(definition.route)]
			: [],
	);
