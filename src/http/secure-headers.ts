import { secureHeaders } from "hono/secure-headers";

/** Secure defaults on every API response: JSON is never a document to render, so nothing may load or frame it. */
export const apiSecurityHeaders = secureHeaders({
	contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
	// One frame policy: nothing may frame it, which the CSP's frame-ancestors says for current browsers.
	xFrameOptions: "DENY",
	crossOriginResourcePolicy: "cross-origin",
});

/** The reference page's: it loads only its own files and /doc; Scalar injects styles, hence their 'unsafe-inline'. */
export const pageSecurityHeaders = secureHeaders({
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
