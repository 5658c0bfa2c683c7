import type { MiddlewareHandler } from "hono";
import { responseHeader } from "./responses";

/** RFC 9111: `no-store` for an authenticated client or a write; `no-cache` (revalidate the ETag) for public reads. */
type CachePolicy = "no-store" | "no-cache";

/** Sets the operation's caching policy on every answer, errors included. */
export const cacheControl =
	(policy: CachePolicy): MiddlewareHandler =>
	async (c, next) => {
		c.header("Cache-Control", policy);
		await next();
	};

export const cacheControlHeader = (policy: CachePolicy) => ({
	"Cache-Control": responseHeader(
		policy === "no-store"
			? "Never stored: the answer is for this authenticated client alone, or carries a secret."
			: "A cache may keep the answer, and revalidates it with its `ETag` before reuse.",
		{ enum: [policy] },
	),
});
