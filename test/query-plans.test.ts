import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openSession } from "../src/db/client";
import { eventWalks } from "../src/resources/events/queries";
import { inventoryWalks } from "../src/resources/inventory/queries";
import { listOrders } from "../src/resources/orders/queries";
import { petWalks } from "../src/resources/pets/queries";

const { db } = openSession(env.DB, { write: false });
const page = { after: 0, limit: 20 };

/** The steps SQLite plans for a query, as `EXPLAIN QUERY PLAN` describes them. */
const plan = async (query: { toSQL(): { sql: string; params: unknown[] } }) => {
	const { sql, params } = query.toSQL();
	const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
		.bind(...params)
		.all<{ detail: string }>();
	return results.map((row) => row.detail);
};

/** A step that reads a whole table, or sorts rows the walk did not deliver in order. */
const fullScanOrSort = (step: string) =>
	/^SCAN (?!\S+ VIRTUAL TABLE)/.test(step) || step.includes("TEMP B-TREE");

/** Whether a step finds `table`'s rows through an index on `column`. */
const byIndexOn = (table: string, column: string) => (step: string) =>
	new RegExp(
		`^SEARCH ${table} USING (COVERING )?INDEX \\S+ \\(${column}=`,
	).test(step);

const throughNameIndex = (step: string) =>
	/^SCAN pet_names VIRTUAL TABLE/.test(step);

/**
 * Every list query with every filter it takes, and the index its filter must use. Each walks in id order from
 * the cursor and stops at the page: no full table scan and no sort, whatever the table holds.
 */
const lists = [
	["pets", petWalks(db, page)],
	[
		"pets by status",
		petWalks(db, { ...page, status: ["sold"] }),
		byIndexOn("pets", "status"),
	],
	[
		"pets by statuses, a walk per status",
		petWalks(db, { ...page, status: ["available", "sold"] }),
		byIndexOn("pets", "status"),
	],
	[
		"pets by category",
		petWalks(db, { ...page, categoryId: 1 }),
		byIndexOn("pets", "category_id"),
	],
	[
		"pets by category and status",
		petWalks(db, { ...page, status: ["available"], categoryId: 1 }),
		byIndexOn("pets", "(category_id|status)"),
	],
	["pets by name", petWalks(db, { ...page, name: "Rex" }), throughNameIndex],
	[
		"pets by name, category and statuses",
		petWalks(db, {
			...page,
			status: ["available", "pending"],
			categoryId: 1,
			name: "rex",
		}),
		throughNameIndex,
	],
	// The trigram index holds runs of three characters: a shorter name is checked pet by pet, in id order.
	["pets by a name of two characters", petWalks(db, { ...page, name: "re" })],
	["orders", [listOrders(db, page)]],
	[
		"orders by pet",
		[listOrders(db, { ...page, petId: 1 })],
		byIndexOn("orders", "pet_id"),
	],
	[
		"orders by completion",
		[listOrders(db, { ...page, complete: false })],
		byIndexOn("orders", "complete"),
	],
	[
		"orders by pet and completion",
		[listOrders(db, { ...page, petId: 1, complete: true })],
		// Either index serves; SQLite picks by what the table holds.
		byIndexOn("orders", "(pet_id|complete)"),
	],
	["inventory", inventoryWalks(db, page)],
	[
		"inventory by statuses, a walk per status",
		inventoryWalks(db, { ...page, status: ["pending", "sold"] }),
		byIndexOn("pets", "status"),
	],
	["events", eventWalks(db, page)],
	[
		"events by types, a walk per type",
		eventWalks(db, { ...page, type: ["pet.created", "order.placed"] }),
		byIndexOn("events", "type"),
	],
	[
		"events of one resource",
		eventWalks(db, { ...page, subject: "/pets/1" }),
		byIndexOn("events", "subject"),
	],
] as const;

describe("list queries walk an index from the cursor and stop at the page", () => {
	it.each(lists)("%s", async (_, walks, filterIndex?) => {
		for (const walk of walks) {
			const steps = await plan(walk);
			expect(steps.filter(fullScanOrSort), steps.join("\n")).toEqual([]);
			if (filterIndex)
				expect(steps.some(filterIndex), steps.join("\n")).toBe(true);
		}
	});

	it("walks once per status asked for", () => {
		expect(petWalks(db, { ...page, status: ["pending", "sold"] })).toHaveLength(
			2,
		);
		expect(petWalks(db, page)).toHaveLength(1);
	});
});
