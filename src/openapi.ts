/** Document-level metadata of the OpenAPI document served at `/doc`. */
export const documentConfig = {
	openapi: "3.0.3",
	info: {
		title: "Petstore API",
		version: "1.0.0",
		description:
			"Pets, their categories, store orders and stock inventory, on Cloudflare Workers and D1.",
		contact: { name: "Petstore API team", email: "api@petstore.example" },
		license: { name: "Proprietary", url: "https://petstore.example/terms" },
	},
	servers: [{ url: "/", description: "The deployment serving this document" }],
	tags: [
		{ name: "Pets", description: "Everything about the animals for sale." },
		{
			name: "Animals",
			description: "The pets themselves.",
			"x-parent": "Pets",
		},
		{ name: "Categories", description: "Kinds of pet.", "x-parent": "Pets" },
		{ name: "Store", description: "Selling pets: orders and stock." },
		{
			name: "Orders",
			description: "Orders placed against the stock.",
			"x-parent": "Store",
		},
		{
			name: "Inventory",
			description: "Units in stock for each pet.",
			"x-parent": "Store",
		},
		{ name: "Service", description: "The service itself." },
		{
			name: "Health",
			description: "Whether the service and its database answer.",
			"x-parent": "Service",
		},
	],
	"x-tagGroups": [
		{ name: "Pets", tags: ["Animals", "Categories"] },
		{ name: "Store", tags: ["Orders", "Inventory"] },
		{ name: "Service", tags: ["Health"] },
	],
};

/** The security scheme every write requires (see src/http/route.ts). */
export const bearerAuth = {
	type: "http",
	scheme: "bearer",
	description:
		"One of the tokens in the `API_TOKEN` secret; locally, the one in `.dev.vars`.",
} as const;
