import { getOpenApiMetadata } from "@asteasolutions/zod-to-openapi";
import type { RouteConfig, z } from "@hono/zod-openapi";
import type { Scope } from "../models/scopes";

/** Stands for the origin that serves the document, which `/doc` puts in its place ({@link servedFrom}). */
export const origin = "{origin}";

/** The environment variable that holds the reader's token (never a real one); the bearer scheme names it too. */
export const tokenVariable = "API_TOKEN";

/** The serialised document as served from an origin: split once, joined around each request's origin. */
export const servedFrom = (document: string) => {
	const parts = document.split(origin);
	return (servingOrigin: string) => parts.join(servingOrigin);
};

/** A route as a sample shows it, with its flags: the token it needs, the `Idempotency-Key` header it takes. */
type Sampled = Pick<RouteConfig, "method" | "path" | "request"> & {
	scope?: Scope;
	idempotent?: true;
};

/** A route's path parameters and JSON body, by their examples. */
type Examples = { params: Record<string, string>; body: unknown };

const curl = (route: Sampled, { params, body }: Examples) => {
	const path = route.path.replace(/\{(\w+)\}/g, (_, name) => params[name]);
	return [
		`curl -X ${route.method.toUpperCase()} '${origin}${path}'`,
		...(route.scope ? [`-H "Authorization: Bearer $${tokenVariable}"`] : []),
		...(body === undefined
			? []
			: ["-H 'Content-Type: application/json'", `-d '${JSON.stringify(body)}'`]),
	].join(" \\\n  ");
};

/** The route's call through `hono/client`, typed by the app's `AppType`. */
const honoClient = (route: Sampled, { params, body }: Examples) => {
	const call = route.path
		.replace(/\{(\w+)\}/g, ":$1")
		.split("/")
		.filter(Boolean)
		.map((segment) => (/^[a-z]\w*$/.test(segment) ? `.${segment}` : `["${segment}"]`))
		.join("");
	// hono/client asks for every part of the request the route declares, even when all of it is optional.
	const args = [
		...(Object.keys(params).length > 0 ? [`param: ${JSON.stringify(params)}`] : []),
		...(route.request?.query ? ["query: {}"] : []),
		...(route.request?.headers || route.idempotent ? ["header: {}"] : []),
		...(body === undefined ? [] : [`json: ${JSON.stringify(body)}`]),
	];
	return [
		'import { hc } from "hono/client";',
		'import type { AppType } from "petstore-api/client";',
		"",
		`const api = hc<AppType>("${origin}"${route.scope ? `, {\n\theaders: { Authorization: \`Bearer \${process.env.${tokenVariable}}\` },\n}` : ""});`,
		`const response = await api${call}.$${route.method}(${args.length > 0 ? `{ ${args.join(", ")} }` : ""});`,
	].join("\n");
};

/** `x-codeSamples` (Scalar, GitBook, Redoc): a curl command and a typed `hono/client` call, from the route. */
export const codeSamples = (route: Sampled) => {
	const params = route.request?.params as z.ZodObject | undefined;
	const content = route.request?.body?.content["application/json"];
	const examples = {
		params: Object.fromEntries(
			Object.entries(params?.shape ?? {}).map(([name, schema]) => [
				name,
				String(getOpenApiMetadata(schema as z.ZodType).param?.example),
			]),
		),
		body: content && "example" in content ? content.example : undefined,
	};
	return [
		{ lang: "Shell", label: "curl", source: curl(route, examples) },
		{ lang: "TypeScript", label: "hono/client", source: honoClient(route, examples) },
	];
};
