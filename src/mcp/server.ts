import { z } from "@hono/zod-openapi";
import {
	type CallToolResult,
	createMcpHandler,
	ProtocolError,
	ProtocolErrorCode,
	Server,
} from "@modelcontextprotocol/server";
import { exposeHeaders } from "../http/cors";
import { errorBody } from "../http/errors";
import { isObject } from "../http/json-body";
import { invalidRequest } from "../http/validation";
import { ApiError, type ErrorDetail, invalid } from "../models/error";
import { info } from "../openapi";
import type { ApiTool, Place } from "./tools";
import { servedVersions } from "./versions";

/** A JSON-RPC message, as far as the door reads it. */
export type Message = {
	id?: unknown;
	method?: unknown;
	params?: { _meta?: Record<string, unknown>; name?: unknown; arguments?: unknown };
};

/** Any client may keep the tools and the discovery for an hour: they change only with a deploy. */
const cacheHint = { ttlMs: 60 * 60 * 1000, cacheScope: "public" } as const;

/** What a tool call takes from the MCP request it arrived on. */
type Caller = {
	/** The app's own `fetch`: the tool call is the API call. */
	fetch: (request: Request) => Response | Promise<Response>;
	origin: string;
	/** What the API call carries of the MCP request: the client's address and its request id. */
	headers: Headers;
};

/** Each part of a request its route validates: the key of its schema, and the target naming it in errors. */
const parts = [
	["path", "params", "param"],
	["query", "query", "query"],
	["header", "headers", "header"],
] as const;

/** Where an argument goes that a URL or a header carries, as text. */
type TextPlace = Exclude<Place, "body">;

/** What HTTP carries in a header, whatever a route's schema says: no control characters, no other script. */
const headerText = z.record(
	z.string(),
	z.string().regex(/^[\t\x20-\x7e]*$/, "must be printable ASCII"),
);

/** An argument as a URL or a header carries it: text. Anything else stays, for the route's schema to refuse. */
const asText = (value: unknown): unknown =>
	Array.isArray(value)
		? value.map(asText)
		: ["string", "number", "boolean"].includes(typeof value)
			? String(value)
			: value;

type Schema = {
	type?: string;
	items?: Schema;
	anyOf?: Schema[];
	properties?: Record<string, Schema>;
	required?: string[];
};

/** Why a path, query or header argument is not of its declared type; any string is left for the route to judge. */
const mistyped = (schema: Schema, value: unknown): string | undefined => {
	const { type, items } = schema;
	if (type === "array" && items) {
		const values = Array.isArray(value) ? value : [value];
		return values.map((item) => mistyped(items, item)).find(Boolean);
	}
	// The value's type as JSON Schema names it: `integer` for a whole number, `null` for null.
	const kind = Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value;
	const given = value === null ? "null" : kind;
	const fits = given === type || given === "string" || (type === "number" && given === "integer");
	return !type || fits ? undefined : `expected ${type}, received ${given}`;
};

/** The body without `null` for optional, non-nullable fields: strict (OpenAI's) and Python clients mean "not given". */
const withoutNulls = (body: unknown, { required = [], properties = {} }: Schema) => {
	const given = ([name, value]: [string, unknown]) =>
		value !== null ||
		required.includes(name) ||
		properties[name]?.anyOf?.some((branch) => branch.type === "null");
	return isObject(body) ? Object.fromEntries(Object.entries(body).filter(given)) : body;
};

/** The arguments by request part, checked by the route's own schemas, every problem named at once as the API does. */
const partsOf = (tool: ApiTool, args: unknown) => {
	if (!isObject(args)) throw invalid("arguments", "must be an object");
	const text: Record<TextPlace, Record<string, unknown>> = { path: {}, query: {}, header: {} };
	const problems: ErrorDetail[] = [];
	let body: unknown;
	const { properties, required } = tool.tool.inputSchema as Required<Schema>;
	for (const [name, value] of Object.entries(args)) {
		const place = Object.hasOwn(tool.places, name) ? tool.places[name] : undefined;
		if (!place) problems.push({ path: `arguments.${name}`, message: "Unknown argument." });
		// `null` for an optional argument is how many clients say "not given".
		if (!place || value === undefined || (value === null && !required.includes(name))) continue;
		if (place === "body") body = withoutNulls(value, properties[name]);
		else {
			const why = mistyped(properties[name], value);
			if (why) problems.push({ path: `${place}.${name}`, message: why });
			else text[place][name] = asText(value);
		}
	}
	const check = (schema: unknown, value: unknown, target: string) => {
		const result = (schema as z.ZodType | undefined)?.safeParse(value);
		if (result?.success !== false) return true;
		problems.push(...(invalidRequest(result.error, target).details ?? []));
		return false;
	};
	for (const [place, key, target] of parts) {
		// A part without arguments cannot leave the route; the app itself says what it lacks.
		if (!Object.keys(text[place]).length) continue;
		// What HTTP cannot carry is said once, before the route's own rules.
		if (place === "header" && !check(headerText, text.header, target)) continue;
		check(tool.route.request?.[key], text[place], target);
	}
	const json = tool.route.request?.body?.content["application/json"];
	if (body !== undefined && json && "schema" in json) check(json.schema, body, "json");
	if (problems.length > 0) throw new ApiError("validation_error", undefined, problems);
	return { ...(text as Record<TextPlace, Record<string, string>>), body };
};

/** The HTTP request a call of `tool` with `args` stands for. */
const requestOf = (tool: ApiTool, args: unknown, caller: Caller) => {
	const { path, query, header, body } = partsOf(tool, args);
	const route = tool.route.path.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(path[name]));
	const url = new URL(route, caller.origin);
	for (const [name, value] of Object.entries(query)) {
		for (const one of [value].flat()) url.searchParams.append(name, one);
	}
	const headers = new Headers(caller.headers);
	for (const [name, value] of Object.entries(header)) headers.set(name, value);
	if (body !== undefined) headers.set("content-type", "application/json");
	const json = body === undefined ? undefined : JSON.stringify(body);
	return new Request(url, { method: tool.route.method.toUpperCase(), headers, body: json });
};

/** An API answer as a tool result: its body as structured content (a page as `{ items, nextCursor }`) and text. */
const resultOf = async (response: Response, withholdsSecret = false): Promise<CallToolResult> => {
	let raw = await response.text();
	let body: unknown = raw ? JSON.parse(raw) : undefined;
	if (withholdsSecret && isObject(body) && "secret" in body) {
		const { secret: _, ...rest } = body;
		[body, raw] = [rest, JSON.stringify(rest)];
	}
	// The `cursor` of the page that `Link: <…>; rel="next"` announces.
	const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("link") ?? "");
	const cursor = next && new URL(next[1], "http://x").searchParams.get("cursor");
	const structured = Array.isArray(body)
		? { items: body, ...(cursor && { nextCursor: cursor }) }
		: (body as Record<string, unknown> | undefined);
	const headers = Object.fromEntries(
		exposeHeaders.map((name) => [name, response.headers.get(name)]).filter(([, value]) => value),
	);
	const text = Array.isArray(body)
		? JSON.stringify(structured)
		: raw || `${response.status} ${response.statusText || "No Content"}`;
	return {
		content: [{ type: "text", text }],
		...(structured && { structuredContent: structured }),
		...(!response.ok && { isError: true }),
		_meta: { status: response.status, headers },
	};
};

/** Calls the operation through the app, as the HTTP request it stands for; invalid arguments are its 400. */
const callOperation = async (tool: ApiTool, args: unknown, caller: Caller) => {
	try {
		return resultOf(await caller.fetch(requestOf(tool, args, caller)), tool.withholdsSecret);
	} catch (error) {
		if (!(error instanceof ApiError)) throw error;
		const body = errorBody(error.code, error.message, error.details);
		const headers = { "X-Request-Id": caller.headers.get("x-request-id") ?? "" };
		return resultOf(Response.json(body, { status: error.status, headers }));
	}
};

/** Answers one MCP message statelessly; the call (not the SDK) refuses non-object `arguments`, as the API would. */
export const serveMcp = async (
	request: Request,
	message: Message,
	tools: Map<string, ApiTool>,
	caller: Caller,
) => {
	// Absent means none; anything else, `null` included, is for the call to judge.
	const { arguments: args = {} } = isObject(message.params) ? message.params : {};
	const handler = createMcpHandler(() => {
		const server = new Server(
			{ name: "petstore-api", version: info.version },
			{
				capabilities: { tools: {} },
				supportedProtocolVersions: [...servedVersions],
				instructions: info.description,
				cacheHints: { "tools/list": cacheHint, "server/discover": cacheHint },
			},
		);
		server.setRequestHandler("tools/list", () => ({
			tools: [...tools.values()].map(({ tool }) => tool),
		}));
		server.setRequestHandler("tools/call", ({ params }) => {
			const tool = tools.get(params.name);
			if (!tool) {
				throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No tool named ${params.name}.`);
			}
			return callOperation(tool, args, caller);
		});
		return server;
	});
	const answer = await handler.fetch(request, {
		parsedBody: isObject(args)
			? message
			: { ...message, params: { ...message.params, arguments: {} } },
	});
	if (message.method !== "server/discover" || !answer.ok) return answer;
	// The SDK's discovery lists the current revision alone (a 2025 client negotiates with `initialize`), as a JSON
	// body or an event stream's one event; `/mcp` answers one list everywhere, its -32022 errors' included.
	const listed = (await answer.text()).replace(
		/"supportedVersions":\[[^\]]*\]/,
		`"supportedVersions":${JSON.stringify(servedVersions)}`,
	);
	return new Response(listed, answer);
};
