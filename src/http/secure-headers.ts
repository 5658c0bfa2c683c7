import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { isReferencePage } from "../reference";

// JSON is never a document to render: nothing may load or frame it.
const api = secureHeaders({
	contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
	crossOriginResourcePolicy: "cross-origin",
});

// The reference page loads only its own files and /doc. Scalar injects its styles, hence 'unsafe-inline' for
// styles alone; scripts stay 'self'.
const page = secureHeaders({
	contentSecurityPolicy: {
		defaultSrc: ["'self'"],
		styleSrc: ["'self'", "'unsafe-inline'"],
		objectSrc: ["'none'"],
		baseUri: ["'none'"],
		formAction: ["'self'"],
		frameAncestors: ["'none'"],
	},
});

/** Secure defaults on every response (`X-Content-Type-Options: nosniff` and the like), and a CSP per kind. */
export const secureDefaults: MiddlewareHandler = (c, next) =>
	(isReferencePage(c.req.path) ? page : api)(c, next);
