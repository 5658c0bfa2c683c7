import { z } from "@hono/zod-openapi";

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
