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

const pathExamples = (route: Sampled): Record<string, string> => {
	const params = route.request?.params as z.ZodObject | undefined;
	return Object.fromEntries(
		Object.entries(params?.shape ?? {}).map(([name, schema]) => [
			name,
			String(getOpenApiMetadata(schema as z.ZodType).param?.example),
		]),
	);
};

const bodyExample = (route: Sampled) => {
	const content = route.request?.body?.content["application/json"];
	return content && "example" in content ? content.example : undefined;
};

const curl = (route: Sampled) => {
	const examples = pathExamples(route);
	const path = route.path.replace(/\{(\w+)\}/g, (_, name) => examples[name]);
	const body = bodyExample(route);
	return [
		`curl -X ${route.method.toUpperCase()} '${origin}${path}'`,
		...(route.scope ? [`-H "Authorization: Bearer $${tokenVariable}"`] : []),
		...(body === undefined
			? []
			: ["-H 'Content-Type: application/json'", `-d '${JSON.stringify(body)}'`]),
	].join(" \\\n  ");
};

/** The route's call through `hono/client`, typed by the app's `AppType`. */
const honoClient = (route: Sampled) => {
	const examples = pathExamples(route);
	const call = route.path
		.replace(/\{(\w+)\}/g, ":$1")
		.split("/")
		.filter(Boolean)
		.map((segment) => (/^[a-z]\w*$/.test(segment) ? `.${segment}` : `["${segment}"]`))
		.join("");
	const body = bodyExample(route);
	// hono/client asks for every part of the request the route declares, even when all of it is optional.
	const args = [
		...(Object.keys(examples).length > 0 ? [`param: ${JSON.stringify(examples)}`] : []),
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
export const codeSamples = (route: Sampled) => [
	{ lang: "Shell", label: "curl", source: curl(route) },
	{ lang: "TypeScript", label: "hono/client", source: honoClient(route) },
];
