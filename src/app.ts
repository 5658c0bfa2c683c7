import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { except } from "hono/combine";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import * as resources from "./db/resources";
import type { AppEnv } from "./env";
import { health, localSchemaCheck } from "./health";
import { cacheControl } from "./http/cache-control";
import { servedFrom } from "./http/code-samples";
import { cors } from "./http/cors";
import { onError, onMethodNotAllowed, onNotFound } from "./http/errors";
import { utf8Json } from "./http/json-body";
import { validationHook } from "./http/validation";
import { mcp, mcpDoor, mcpPath } from "./mcp";
import { ApiError } from "./models/error";
import { limits } from "./models/limits";
import { oauthRoutes } from "./oauth/routes";
import { oauthPaths } from "./oauth/server";
import { bearerAuth, documentFor } from "./openapi";
import { reference } from "./reference";
import { categoriesRouter } from "./resources/categories";
import { eventsRouter } from "./resources/events";
import { inventoryRouter } from "./resources/inventory";
import { keysRouter } from "./resources/keys";
import { ordersRouter } from "./resources/orders";
import { petsRouter } from "./resources/pets";
import { webhooksRouter } from "./resources/webhooks";
import { nudgeOutbox } from "./webhooks/outbox/nudge";

/** The reference page and its files (the wildcard matches `/reference` itself). */
const referencePages = "/reference/*";

/** Secure defaults on every API response: JSON is never a document to render, so nothing may load or frame it. */
const apiSecurityHeaders = secureHeaders({
	contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
	// One frame policy: nothing may frame it, which the CSP's frame-ancestors says for current browsers.
	xFrameOptions: "DENY",
	crossOriginResourcePolicy: "cross-origin",
});

/** The reference page's: it loads only its own files and /doc; Scalar injects styles, hence their 'unsafe-inline'. */
const pageSecurityHeaders = secureHeaders({
	contentSecurityPolicy: {
		defaultSrc: ["'self'"],
		styleSrc: ["'self'", "'unsafe-inline'"],
		objectSrc: ["'none'"],
		baseUri: ["'none'"],
		formAction: ["'self'"],
		frameAncestors: ["'none'"],
	},
	xFrameOptions: "DENY",
});

/** Answers 413 once a body passes the limit, counting streamed bytes rather than buffering them all. */
const limitBody = bodyLimit({
	maxSize: limits.requestBodyBytes,
	onError: () => {
		throw new ApiError("payload_too_large");
	},
});

/** Builds the whole API: cross-cutting middleware, the resource routers, `/doc`, `/reference`, `/health` and `/mcp`. */
export const createApp = ({ now = Date.now }: { now?: () => number } = {}) => {
	const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
	app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", bearerAuth);
	// Outermost first: every response, preflights included, gets an id and secure headers. Workers Logs'
	// invocation logs (`[observability]`) record each request's method, URL, status and duration.
	app.use(requestId(), except([referencePages, oauthPaths.authorize], apiSecurityHeaders));
	app.use(referencePages, pageSecurityHeaders);
	// The consent page sets its own policy: its form may send the browser on to the client it names.
	app.use(oauthPaths.authorize, secureHeaders({ xFrameOptions: "DENY" }));
	// Before any rule of the API's: an agent's request is refused in JSON-RPC, the only shape it reads.
	app.use(mcpPath, mcpDoor);
	// Stored by no cache unless a route says otherwise (src/http/route.ts): a refused body is answered here.
	app.use(cacheControl("no-store"), cors, limitBody, utf8Json);
	app.use(methodNotAllowed({ app, onMethodNotAllowed }));
	app.use(async (c, next) => {
		c.set("now", now);
		await next();
	});
	// Under local development, a database behind the code is answered 503, never served (src/health.ts).
	app.use(except(["/doc", referencePages], localSchemaCheck()));
	// Writes to these record events (src/db/write.ts): once one has succeeded, the outbox is nudged. A
	// wildcard matches the collection's own path too.
	for (const { path } of Object.values(resources)) app.use(`${path}/*`, nudgeOutbox);

	const routes = app
		.route("/", petsRouter)
		.route("/", categoriesRouter)
		.route("/", ordersRouter)
		.route("/", inventoryRouter)
		.route("/", eventsRouter)
		.route("/", webhooksRouter)
		.route("/", keysRouter)
		.route("/", health)
		.route("/", reference);
	// Built and serialised on the first request rather than at start-up, then kept for the isolate's lifetime;
	// each answer puts the origin it is served from into the code samples.
	let documentAt: ((origin: string) => string) | undefined;
	app.get("/doc", (c) => {
		documentAt ??= servedFrom(JSON.stringify(app.getOpenAPIDocument(documentFor(app))));
		return c.body(documentAt(new URL(c.req.url).origin), 200, {
			"Content-Type": "application/json",
			"Cache-Control": "no-cache",
		});
	});
	// The tools' transport, not an operation: like /doc and /reference, it is not in the document (which names it).
	app.post(mcpPath, mcp(app));
	// Hosted agents' sign-in (src/oauth/): like /mcp, its RFCs are its contract, not the document.
	app.route("/", oauthRoutes);
	app.notFound(onNotFound);
	app.onError(onError);
	return routes;
};

export type AppType = ReturnType<typeof createApp>;
