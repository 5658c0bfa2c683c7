import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { exposeHeaders } from "../http/cors";
import type { Operation } from "./tools";

/** What a tool call takes from the MCP request it arrived on. */
export type Caller = {
	/** The app's own `fetch`: the tool call is the API call. */
	fetch: (request: Request) => Response | Promise<Response>;
	origin: string;
	/** The MCP request's headers that the API reads: its credentials and the client's address. */
	headers: Headers;
};

/** The MCP request's headers that the API call carries: the token, and the address the rate limiter counts. */
const forwarded = ["authorization", "cf-connecting-ip"];

const text = (value: unknown) => (value === undefined ? "" : String(value));

/** The HTTP request a call of `operation` with `args` stands for. */
export const requestOf = (
	operation: Operation,
	args: Record<string, unknown>,
	caller: Caller,
) => {
	const path = operation.params.reduce(
		(at, name) => at.replace(`{${name}}`, encodeURIComponent(text(args[name]))),
		operation.path,
	);
	const url = new URL(path, caller.origin);
	for (const name of operation.query) {
		const value = args[name];
		for (const one of Array.isArray(value) ? value : [value]) {
			if (one !== undefined) url.searchParams.append(name, text(one));
		}
	}
	const headers = new Headers();
	for (const name of forwarded) {
		const value = caller.headers.get(name);
		if (value) headers.set(name, value);
	}
	for (const name of operation.headers) {
		if (args[name] !== undefined) headers.set(name, text(args[name]));
	}
	const withBody = operation.body && args.body !== undefined;
	if (withBody) headers.set("content-type", "application/json");
	return new Request(url, {
		method: operation.method,
		headers,
		body: withBody ? JSON.stringify(args.body) : undefined,
	});
};

/** The `cursor` of the page that `Link: <…>; rel="next"` announces. */
const nextCursor = (link: string | null) => {
	const next = link && /<([^>]+)>;\s*rel="next"/.exec(link);
	return next ? new URL(next[1], "http://x").searchParams.get("cursor") : null;
};

/**
 * The tool result of an API answer: a success's body (a page as `{ items, nextCursor }`) as structured content,
 * an error as a tool error carrying the API's `Error`; both as JSON text too, and the status with the headers a
 * client reads in `_meta`.
 */
export const resultOf = async (response: Response): Promise<CallToolResult> => {
	const raw = await response.text();
	const body: unknown = raw ? JSON.parse(raw) : undefined;
	const cursor = nextCursor(response.headers.get("link"));
	const structured = Array.isArray(body)
		? { items: body, ...(cursor && { nextCursor: cursor }) }
		: (body as Record<string, unknown> | undefined);
	const headers = Object.fromEntries(
		exposeHeaders.flatMap((name) => {
			const value = response.headers.get(name);
			return value ? [[name, value]] : [];
		}),
	);
	return {
		content: [
			{
				type: "text",
				text: structured
					? JSON.stringify(structured)
					: `${response.status} ${response.statusText || "No Content"}`,
			},
		],
		...(structured && { structuredContent: structured }),
		...(!response.ok && { isError: true }),
		_meta: { status: response.status, headers },
	};
};

/** Calls the operation through the app, as the HTTP request it stands for. */
export const callOperation = async (
	operation: Operation,
	args: Record<string, unknown>,
	caller: Caller,
) => resultOf(await caller.fetch(requestOf(operation, args, caller)));
