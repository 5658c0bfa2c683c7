import { z } from "@hono/zod-openapi";
import { ApiError } from "./error";

/** What a credential may do (reads of pets, categories, orders, inventory and events need none). */
export const scopeDescriptions = {
	"pets:write": "Create, change and delete pets and categories.",
	"orders:write": "Place, change and cancel orders.",
	"inventory:write": "Set stock.",
	"webhooks:manage": "Create, read and manage one's own webhooks and their deliveries.",
	"keys:manage": "Create, read, change, roll and revoke API keys.",
} as const;

export type Scope = keyof typeof scopeDescriptions;

export const scopes = Object.keys(scopeDescriptions) as [Scope, ...Scope[]];

export const ScopeName = z.enum(scopes).openapi("Scope", {
	description: Object.entries(scopeDescriptions)
		.map(([scope, what]) => `\`${scope}\`: ${what}`)
		.join(" "),
});

/** Who a request is: a key (its id), or the root token; what it may do, and what it is counted and scoped as. */
export type Client = {
	key?: number;
	scopes: readonly Scope[];
	/** Its write budget's name: the key's id, or the root token's digest. */
	budget: string;
	/** When a key stops working; null: never (the root token neither). */
	expiresAt: string | null;
};

/** The 403 of a credential that lacks `scope`. */
export const insufficientScope = (scope: Scope) =>
	new ApiError("forbidden", `This credential lacks the scope ${scope}.`, undefined, {
		"WWW-Authenticate": `Bearer realm="petstore", error="insufficient_scope", scope="${scope}"`,
	});
