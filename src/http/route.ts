import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { requireToken } from "./auth";
import type { ErrorCode } from "./errors";
import {
	deprecationHeaders,
	type Lifecycle,
	lifecycleMarkers,
} from "./lifecycle";
import { limitWrites } from "./rate-limit";
import { errorResponses } from "./responses";

type ApiRouteConfig = Omit<RouteConfig, "middleware" | "security" | "tags"> & {
	operationId: string;
	summary: string;
	description: string;
	/** The one tag that groups the operation. */
	tag: string;
	/** The error codes the handler itself throws; those every such operation can answer are added. */
	errors?: ErrorCode[];
	lifecycle?: Lifecycle;
};

/** The route as `OpenAPIHono.openapi` reads it; errors are thrown, so only declared successes type handlers. */
type ApiRoute<R extends ApiRouteConfig> = Omit<
	R,
	"errors" | "lifecycle" | "tag"
> & {
	tags: string[];
	middleware: MiddlewareHandler<AppEnv>[];
};

/** Where the reference page documents an operation. */
const documentationOf = ({ tag, method, path }: ApiRouteConfig) =>
	`/reference#tag/${tag.toLowerCase()}/${method.toUpperCase()}${path}`;

/** The security requirement of every write: the bearer scheme of src/openapi.ts. */
const bearer = [{ bearerAuth: [] }];

/**
 * `createRoute` with the API's cross-cutting metadata derived in one place: writes get rate limiting, the
 * bearer token check and its security requirement; deprecated routes their headers; every route the error
 * responses it can answer.
 */
export const apiRoute = <const R extends ApiRouteConfig>(
	route: R,
): ApiRoute<R> => {
	const { errors = [], lifecycle, tag, ...config } = route;
	const implied: ErrorCode[] = ["internal_error"];
	if (config.request) implied.push("validation_error");
	if (config.request?.body) {
		implied.push(
			"malformed_json",
			"unsupported_media_type",
			"payload_too_large",
		);
	}
	const middleware: MiddlewareHandler<AppEnv>[] = [];
	const write = config.method !== "get";
	if (write) {
		implied.push("rate_limited", "unauthorized");
		middleware.push(limitWrites, requireToken);
	}
	if (lifecycle?.deprecated) {
		implied.push("gone");
		middleware.push(
			deprecationHeaders(lifecycle.deprecated, documentationOf(route)),
		);
	}
	return createRoute({
		...config,
		tags: [tag],
		...lifecycleMarkers(lifecycle),
		...(write && { security: bearer }),
		middleware,
		responses: {
			...config.responses,
			...errorResponses(...implied, ...errors),
		},
	});
};
