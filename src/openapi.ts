import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./env";
import { origin, tokenVariable } from "./http/code-samples";
import { flagsOf, type Tag } from "./http/route";
import { scopes } from "./models/scopes";

/** The groups the document's tags sit in, titled by their names: navigation only, with no operation of their own. */
const groups = [
	{ name: "Pets", description: "Everything about the animals for sale.", icon: "paw" },
	{ name: "Store", description: "Selling pets: orders and stock.", icon: "store" },
	{
		name: "Integrations",
		description: "Following every change: a feed to read, webhooks to receive.",
		icon: "plug",
	},
	{ name: "Access", description: "Each client its own key.", icon: "key" },
	{ name: "Service", description: "The service itself.", icon: "server" },
].map((group) => ({ ...group, title: group.name }));

/** The document's metadata besides its tags: what the API is, and where it is served. */
export const info = {
	title: "Petstore API",
	version: "1.0.0",
	description:
		"Pets, their categories, store orders and stock inventory, on Cloudflare Workers and D1.\n\n" +
		"**Agents:** every operation is also a tool of the Model Context Protocol, served at `/mcp` on this origin " +
		"(Streamable HTTP, stateless): the tool is named by the `operationId`, takes the path, query and header " +
		"parameters and a `body`, and answers what the operation answers (a list as `{ items, nextCursor }`: pass " +
		"`nextCursor` as `cursor` for the next page). A refusal is a tool error carrying the API's `Error` " +
		"(`code`, `message`, `status`, `details`): a tool names its own codes, and any may answer " +
		"`validation_error`, `rate_limited` or `unavailable`. Write tools need the same bearer token, sent in the " +
		"MCP request's `Authorization` header.",
	contact: { name: "Petstore API team", email: "api@petstore.example" },
	license: { name: "Proprietary", url: "https://petstore.example/terms" },
};

/** A tag as the document writes it, with the words GitBook and Scalar read. */
const documented = (tag: Omit<Tag, "parent"> & { parent?: string }) => ({
	name: tag.name,
	description: tag.description,
	"x-displayName": tag.title,
	"x-page-title": tag.title,
	"x-page-description": tag.description,
	"x-page-icon": tag.icon,
	...(tag.parent && { "x-parent": tag.parent }),
});

/**
 * The document's metadata for `app`: the tags its operations carry, in order of registration, each under its group
 * (`x-parent`), and the same grouping as `x-tagGroups`, for renderers that read those instead.
 */
export const documentFor = (app: OpenAPIHono<AppEnv>) => {
	const tags = [
		...new Map(
			app.openAPIRegistry.definitions.flatMap((definition) => {
				const tag = definition.type === "route" && flagsOf(definition.route)?.tag;
				return tag ? [[tag.name, tag] as const] : [];
			}),
		).values(),
	];
	const inGroup = (group: { name: string }) => tags.filter((tag) => tag.parent === group.name);
	return {
		openapi: "3.0.3",
		info,
		// Absolute, so that a collection imported from it (Postman, Insomnia) calls this deployment as it is.
		servers: [{ url: origin, description: "The deployment serving this document" }],
		tags: groups.flatMap((group) => [documented(group), ...inGroup(group).map(documented)]),
		"x-tagGroups": groups.map((group) => ({
			name: group.name,
			tags: inGroup(group).map((tag) => tag.name),
		})),
	};
};

/** The security scheme of the operations that need a scope (see src/http/route.ts). */
export const bearerAuth = {
	type: "http",
	scheme: "bearer",
	description: `An API key (\`pst_…\`, made with \`createKey\`), or the root token: one of the tokens in the \`API_TOKEN\` secret (locally, the one in \`.dev.vars\`), which holds every scope. Each operation that needs one names its scope (\`x-scopes\`): ${scopes.map((scope) => `\`${scope}\``).join(", ")}.`,
	"x-gitbook-token-placeholder": tokenVariable,
} as const;
