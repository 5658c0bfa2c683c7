import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openSession } from "../src/db/client";
import { inventoryWalks } from "../src/resources/inventory/queries";
import { listOrders } from "../src/resources/orders/queries";
import { petWalks } from "../src/resources/pets/queries";

const { db } = openSession(env.DB, { write: false });
const page = { after: 0, limit: 20 };

const byId = (table: string) =>
	`SEARCH ${table} USING INTEGER PRIMARY KEY (rowid>?)`;
const byIndex = (table: string, index: string, column: string) =>
	`SEARCH ${table} USING INDEX ${index} (${column}=? AND id>?)`;
const byName = [
	"SCAN pet_names VIRTUAL TABLE INDEX 64:M1>",
	"SEARCH pets USING INTEGER PRIMARY KEY (rowid=?)",
];
const itemOf = "SEARCH inventory USING INTEGER PRIMARY KEY (rowid=?)";

/**
 * Every query a list runs, with every filter it takes, and the plan each must have: an index walk in id order
 * from the cursor, which stops at the page (no sort, no other table scan).
 */
const lists = [
	["pets", petWalks(db, page), [byId("pets")]],
	[
		"pets by status",
		petWalks(db, { ...page, status: ["sold"] }),
		[byIndex("pets", "pets_status", "status")],
	],
	[
		"pets by statuses, a walk per status",
		petWalks(db, { ...page, status: ["available", "sold"] }),
		[byIndex("pets", "pets_status", "status")],
	],
	[
		"pets by category",
		petWalks(db, { ...page, categoryId: 1 }),
		[byIndex("pets", "pets_category_id", "category_id")],
	],
	[
		"pets by category and status",
		petWalks(db, { ...page, status: ["available"], categoryId: 1 }),
		[byIndex("pets", "pets_category_id", "category_id")],
	],
	["pets by name", petWalks(db, { ...page, name: "Rex" }), byName],
	[
		"pets by name, category and statuses",
		petWalks(db, {
			...page,
			status: ["available", "pending"],
			categoryId: 1,
			name: "rex",
		}),
		byName,
	],
	// The trigram index holds runs of three characters: a shorter name is checked pet by pet, in id order.
	[
		"pets by a name of two characters",
		petWalks(db, { ...page, name: "re" }),
		[byId("pets")],
	],
	["orders", [listOrders(db, page)], [byId("orders")]],
	[
		"orders by pet",
		[listOrders(db, { ...page, petId: 1 })],
		[byIndex("orders", "orders_pet_id", "pet_id")],
	],
	[
		"orders by completion",
		[listOrders(db, { ...page, complete: false })],
		[byIndex("orders", "orders_complete", "complete")],
	],
	[
		"orders by pet and completion",
		[listOrders(db, { ...page, petId: 1, complete: true })],
		[byIndex("orders", "orders_pet_id", "pet_id")],
	],
	["inventory", inventoryWalks(db, page), [byId("pets"), itemOf]],
	[
		"inventory by statuses, a walk per status",
		inventoryWalks(db, { ...page, status: ["pending", "sold"] }),
		[
			"SEARCH pets USING COVERING INDEX pets_status (status=? AND id>?)",
			itemOf,
		],
	],
] as const;

const plan = async (query: { toSQL(): { sql: string; params: unknown[] } }) => {
	const { sql, params } = query.toSQL();
	const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
		.bind(...params)
		.all<{ detail: string }>();
	return results.map((row) => row.detail);
};

describe("list queries walk an index from the cursor and stop at the page", () => {
	it.each(lists)("%s", async (_, walks, steps) => {
		for (const walk of walks) expect(await plan(walk)).toEqual(steps);
	});

	it("walks once per status asked for", () => {
		expect(petWalks(db, { ...page, status: ["pending", "sold"] })).toHaveLength(
			2,
		);
		expect(petWalks(db, page)).toHaveLength(1);
	});
});
