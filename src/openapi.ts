import { origin, tokenVariable } from "./http/code-samples";
import { durations, inWords } from "./models/limits";

/** A tag of the document: a navigation group (no `parent`) or the tag its operations carry. */
type Tag = {
	name: string;
	/** The page title GitBook and Scalar show. */
	title: string;
	description: string;
	/** A Font Awesome icon name, for GitBook. */
	icon: string;
	parent?: string;
};

const tags: Tag[] = [
	{
		name: "Pets",
		title: "Pets",
		description: "Everything about the animals for sale.",
		icon: "paw",
	},
	{
		name: "Animals",
		title: "Pets for sale",
		description: "The pets themselves.",
		icon: "dog",
		parent: "Pets",
	},
	{
		name: "Categories",
		title: "Pet categories",
		description: "Kinds of pet.",
		icon: "tags",
		parent: "Pets",
	},
	{ name: "Store", title: "Store", description: "Selling pets: orders and stock.", icon: "store" },
	{
		name: "Orders",
		title: "Store orders",
		description: "Orders placed against the stock.",
		icon: "receipt",
		parent: "Store",
	},
	{
		name: "Inventory",
		title: "Stock",
		description: "Units in stock for each pet.",
		icon: "boxes-stacked",
		parent: "Store",
	},
	{
		name: "Integrations",
		title: "Integrations",
		description: "Following every change: a feed to read, webhooks to receive.",
		icon: "plug",
	},
	{
		name: "Events",
		title: "Event feed",
		description: `Every change, in order, for ${inWords(durations.eventRetention)}.`,
		icon: "list",
		parent: "Integrations",
	},
	{
		name: "Webhooks",
		title: "Webhooks",
		description: "Endpoints that receive events, signed per Standard Webhooks.",
		icon: "bell",
		parent: "Integrations",
	},
	{ name: "Service", title: "Service", description: "The service itself.", icon: "server" },
	{
		name: "Health",
		title: "Service health",
		description: "Whether the service and its database answer.",
		icon: "heart-pulse",
		parent: "Service",
	},
];

/** Document-level metadata of the OpenAPI document served at `/doc`. */
export const documentConfig = {
	openapi: "3.0.3",
	info: {
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
	},
	// Absolute, so that a collection imported from it (Postman, Insomnia) calls this deployment as it is.
	servers: [{ url: origin, description: "The deployment serving this document" }],
	tags: tags.map(({ name, title, description, icon, parent }) => ({
		name,
		description,
		"x-displayName": title,
		"x-page-title": title,
		"x-page-description": description,
		"x-page-icon": icon,
		...(parent && { "x-parent": parent }),
	})),
	// The same grouping, for renderers that read tag groups rather than `x-parent`.
	"x-tagGroups": tags
		.filter((group) => !group.parent)
		.map((group) => ({
			name: group.name,
			tags: tags.filter((tag) => tag.parent === group.name).map((tag) => tag.name),
		})),
};

/** The security scheme of the operations that say `auth: "bearer"` (see src/http/route.ts). */
export const bearerAuth = {
	type: "http",
	scheme: "bearer",
	description: "One of the tokens in the `API_TOKEN` secret; locally, the one in `.dev.vars`.",
	"x-gitbook-token-placeholder": tokenVariable,
} as const;
