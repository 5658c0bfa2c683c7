import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../models/error";
import { responseHeader } from "./responses";

/** How an operation stands in its life: declared once on the route, it drives the document and the headers. */
export type Lifecycle = {
	/** Days as `YYYY-MM-DD`, in UTC: deprecated from the start of `since`, gone after the end of `sunset`. */
	deprecated?: { since: string; sunset: string };
	stability?: "experimental" | "beta";
};

/** The operation fields of the OpenAPI document that state the lifecycle. */
export const lifecycleMarkers = ({ deprecated, stability }: Lifecycle = {}) => ({
	...(deprecated && { deprecated: true, "x-deprecated-sunset": deprecated.sunset }),
	...(stability && { "x-stability": stability }),
});

/** The sentence that a deprecated operation's description ends with. */
export const deprecationNote = ({ since, sunset }: NonNullable<Lifecycle["deprecated"]>) =>
	`Deprecated since ${since}; after ${sunset} it answers 410 \`gone\`.`;

/** Documents the headers of {@link deprecationHeaders}. */
export const deprecationResponseHeaders = {
	Deprecation: responseHeader("When the operation was deprecated (RFC 9745)."),
	Sunset: responseHeader("When the operation stops answering (RFC 8594)."),
	Link: responseHeader('Where the deprecation is documented (`rel="deprecation"`).'),
};

/** Sends the headers of {@link deprecationResponseHeaders}, and answers 410 `gone` once the sunset has passed. */
export const deprecationHeaders = (
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
