import { createRoute, type RouteConfig, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../models/error";
import type { ErrorCode } from "../models/error-codes";
import type { Scope } from "../models/scopes";
import { authenticate, requireScope } from "./auth";
import { cacheControl, cacheControlHeader } from "./cache-control";
import { codeSamples } from "./code-samples";
import { notModified } from "./conditional";
import { idempotency, idempotencyHeader, replayedHeader } from "./idempotency";
import { noBody } from "./json-body";
import { isWrite } from "./methods";
import { limitReads, limitWrites } from "./rate-limit";
import { errorResponses, everyResponseHeaders, responseHeader } from "./responses";
import { bookmarkParam, bookmarkResponseHeader, d1Session } from "./session";
import { optionalHeader } from "./validation";

/** A tag of the document, under the group `parent` of src/openapi.ts; `icon` names a Font Awesome icon. */
export type Tag = Record<"name" | "title" | "description" | "icon" | "parent", string>;

/** How an operation stands in its life: declared once on the route, it drives the document and the headers. */
type Lifecycle = {
	/** Days as `YYYY-MM-DD`, in UTC: deprecated from the start of `since`, gone after the end of `sunset`. */
	deprecated?: { since: string; sunset: string };
	stability?: "experimental" | "beta";
};

/** Documents the headers of {@link deprecationHeaders}. */
const deprecationResponseHeaders = {
	Deprecation: responseHeader("When the operation was deprecated (RFC 9745)."),
	Sunset: responseHeader("When the operation stops answering (RFC 8594)."),
	Link: responseHeader('Where the deprecation is documented (`rel="deprecation"`).'),
};

/** Sends the headers of {@link deprecationResponseHeaders}, and answers 410 `gone` once the sunset has passed. */
const deprecationHeaders = (
	{ since, sunset }: NonNullable<Lifecycle["deprecated"]>,
	documentation: string,
): MiddlewareHandler<AppEnv> => {
	const sunsetAt = Date.parse(`${sunset}T23:59:59Z`);
	const headers = {
		Deprecation: `@${Date.parse(`${since}T00:00:00Z`) / 1000}`,
		Sunset: new Date(sunsetAt).toUTCString(),
		Link: `<${documentation}>; rel="deprecation"; type="text/html"`,
	};
	return async (c, next) => {
		for (const [name, value] of Object.entries(headers)) c.header(name, value);
		if (c.var.now() > sunsetAt) {
			throw new ApiError("gone", `This operation was retired on ${sunset}; see ${documentation}.`);
		}
		await next();
	};
};

/** Reads are public unless they name a scope, writes need one; an `idempotent` create replays its first answer. */
type Access =
	| { method: "get"; scope?: Scope; idempotent?: never }
	| { method: "post"; scope: Scope; idempotent?: true }
	| { method: "put" | "patch" | "delete"; scope: Scope; idempotent?: never };

type ApiRouteConfig = Omit<RouteConfig, "method" | "middleware" | "security" | "tags"> &
	Access & {
		operationId: string;
		summary: string;
		description: string;
		/** An object, so that a parameter it does not define can be refused. */
		request?: RouteConfig["request"] & { query?: z.ZodObject };
		/** The document lists a tag only because an operation carries it. */
		tag: Tag;
		/** Answers one resource with a strong `ETag`: a read 304 to `If-None-Match`, a change 412 to `If-Match`. */
		conditional?: true;
		/** The error codes the handler itself throws; those every such operation can answer are added. */
		errors?: ErrorCode[];
		lifecycle?: Lifecycle;
	};

/** What a route declares beside its OpenAPI fields, readable on the registered route through {@link flagsOf}. */
type RouteFlags = Pick<
	ApiRouteConfig,
	"conditional" | "errors" | "idempotent" | "lifecycle" | "scope" | "tag"
>;

/** The flags of each route `apiRoute` made, by operation id (the document's own key, unique to one route). */
const flagsById = new Map<string, RouteFlags>();

/** A route's flags, kept beside it: the document generator copies a route's own fields into the document. */
export const flagsOf = (route: RouteConfig): RouteFlags | undefined =>
	route.operationId === undefined ? undefined : flagsById.get(route.operationId);

/** The route as `OpenAPIHono.openapi` reads it; errors are thrown, so only declared successes type handlers. */
type ApiRoute<R extends ApiRouteConfig> = Omit<R, keyof RouteFlags> &
	// A typed client (hono/client) sends the header an idempotent route takes.
	(R extends { idempotent: true }
		? {
				request: NonNullable<R["request"]> & {
					headers: z.ZodObject<ReturnType<typeof idempotencyHeader>>;
				};
			}
		: unknown) & { security: (typeof bearer)[number][]; middleware: MiddlewareHandler<AppEnv>[] };

/** The security requirement of an operation that needs a credential: the bearer scheme of src/openapi.ts. */
const bearer = [{ bearerAuth: [] }];

const etagHeader = {
	ETag: responseHeader("Strong validator of this representation.", { optional: true }),
};

const conditionalHeader = (name: "If-Match" | "If-None-Match") => ({
	[name]: optionalHeader(z.string()).openapi({
		param: { name, in: "header", example: '"1"' },
		// The example, a seeded row's first ETag, is no value to rely on: the description says where one comes from.
		description:
			name === "If-Match"
				? "An earlier response's `ETag`: change the resource only while it still has it (412 otherwise)."
				: "An earlier response's `ETag`: answer 304 without a body while the resource still has it.",
	}),
});

/** `createRoute` with the API's cross-cutting middleware, headers and error responses derived in one place. */
export const apiRoute = <const R extends ApiRouteConfig>(route: R): ApiRoute<R> => {
	const { scope, conditional, errors = [], idempotent, lifecycle, tag, ...config } = route;
	const { deprecated, stability } = lifecycle ?? {};
	// Every operation reaches D1, so any can meet a platform failure: a 503, never a 500.
	const implied: ErrorCode[] = ["validation_error", "internal_error", "unavailable"];
	const write = isWrite(config.method);
	const cachePolicy = scope || write ? "no-store" : "no-cache";
	// First, so that every answer carries it, errors included.
	const middleware: MiddlewareHandler<AppEnv>[] = [cacheControl(cachePolicy)];
	if (deprecated) {
		implied.push("gone");
		// Early, so that every answer carries it, a 400 included; it links the operation on the reference page.
		const anchor = `/reference#tag/${tag.name.toLowerCase()}/${config.method.toUpperCase()}${config.path}`;
		middleware.push(deprecationHeaders(deprecated, encodeURI(anchor)));
	}
	// Every request body is size-limited and held to the JSON rules (src/app.ts).
	if (write) implied.push("payload_too_large", "malformed_json", "unsupported_media_type");
	// Authentication first: the write budget is the client's, and a request that fails it spends its own.
	if (scope) {
		implied.push("unauthorized", "forbidden");
		middleware.push(authenticate);
	}
	implied.push("rate_limited");
	middleware.push(write ? limitWrites : limitReads);
	// A credential without the scope is counted on its own budget too.
	if (scope) middleware.push(requireScope(scope));
	// An operation that takes no body refuses one: after the token and the budget, so the request is counted.
	if (write && !config.request?.body) middleware.push(noBody);
	// Outside the ETag check, so that its bookmark is on every answer that reached D1, 304 included.
	middleware.push(d1Session);
	let headers = bookmarkParam;
	if (idempotent) {
		implied.push("idempotency_key_reused");
		middleware.push(idempotency);
		headers = { ...headers, ...idempotencyHeader(config.operationId) };
	}
	if (conditional) {
		if (write) implied.push("precondition_failed");
		else middleware.push(notModified);
		headers = { ...headers, ...conditionalHeader(write ? "If-Match" : "If-None-Match") };
	}
	const declared = config.request?.headers;
	const request = {
		...config.request,
		// A parameter the operation does not define (`status[]`, a wrong case) is refused, never ignored.
		query: (config.request?.query ?? z.object({})).strict(),
		headers: declared instanceof z.ZodObject ? declared.extend(headers) : z.object(headers),
	};
	const onEveryResponse = {
		...everyResponseHeaders,
		...cacheControlHeader(cachePolicy),
		...bookmarkResponseHeader,
		...(deprecated && deprecationResponseHeaders),
	};
	const responses = Object.fromEntries(
		Object.entries({
			...config.responses,
			...(conditional && !write && { 304: { description: "Not modified." } }),
			...errorResponses(...implied, ...errors),
		}).map(([status, response]) => [
			status,
			{
				...response,
				headers: {
					...onEveryResponse,
					...((status === "200" || status === "201") && (conditional || write) && etagHeader),
					...(status === "201" && idempotent && replayedHeader),
					...("headers" in response && response.headers),
				},
			},
		]),
	);
	flagsById.set(config.operationId, { scope, conditional, errors, idempotent, lifecycle, tag });
	return createRoute({
		...config,
		description: [
			config.description,
			deprecated &&
				`Deprecated since ${deprecated.since}; after ${deprecated.sunset} it answers 410 \`gone\`.`,
			scope && `Needs the scope \`${scope}\`.`,
		]
			.filter(Boolean)
			.join(" "),
		tags: [tag.name],
		...(deprecated && { deprecated: true, "x-deprecated-sunset": deprecated.sunset }),
		...(stability && { "x-stability": stability }),
		"x-codeSamples": codeSamples(route),
		// Reads state that they need no credentials: an empty requirement, not an absent one.
		security: scope ? bearer : [],
		...(scope && { "x-scopes": [scope] as Scope[] }),
		middleware,
		request,
		responses,
		// The idempotency header is derived above, which TypeScript cannot follow.
	}) as unknown as ApiRoute<R>;
};
