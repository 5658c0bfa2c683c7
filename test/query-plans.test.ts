import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { testApp } from "./support/api";
import { type SentStatement, watchedD1 } from "./support/d1";

/** The statements a request sent to D1, and its status. */
const statementsOf = async (path: string) => {
	const d1 = watchedD1(env.DB);
	const response = await testApp({ bindings: { DB: d1.binding } }).anonymous(path);
	expect(response.status, path).toBe(200);
	return d1.sent();
};

/** The steps SQLite plans for a statement, as `EXPLAIN QUERY PLAN` describes them. */
const plan = async ({ sql, params }: SentStatement) => {
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
	new RegExp(`^SEARCH ${table} USING (COVERING )?INDEX \\S+ \\(${column}=`).test(step);

const throughNameIndex = (step: string) => /^SCAN pet_names VIRTUAL TABLE/.test(step);

/**
 * Every list with every filter it takes, and the index its filter must use. Each walks in id order from the
 * cursor and stops at the page: no full table scan and no sort, whatever the table holds.
 */
const lists: [string, string, ((step: string) => boolean)?][] = [
	["pets", "/pets"],
	["pets by status", "/pets?status=sold", byIndexOn("pets", "status")],
	[
		"pets by statuses, a walk per status",
		"/pets?status=available&status=sold",
		byIndexOn("pets", "status"),
	],
	["pets by category", "/pets?categoryId=1", byIndexOn("pets", "category_id")],
	[
		"pets by category and status",
		"/pets?status=available&categoryId=1",
		byIndexOn("pets", "(category_id|status)"),
	],
	["pets by name", "/pets?name=Rex", throughNameIndex],
	[
		"pets by name, category and statuses",
		"/pets?status=available&status=pending&categoryId=1&name=rex",
		throughNameIndex,
	],
	["orders", "/store/orders"],
	["orders by pet", "/store/orders?petId=1", byIndexOn("orders", "pet_id")],
	["orders by completion", "/store/orders?complete=false", byIndexOn("orders", "complete")],
	[
		"orders by pet and completion",
		"/store/orders?petId=1&complete=true",
		// Either index serves; SQLite picks by what the table holds.
		byIndexOn("orders", "(pet_id|complete)"),
	],
	["inventory", "/store/inventory"],
	[
		"inventory by statuses, a walk per status",
		"/store/inventory?status=pending&status=sold",
		byIndexOn("pets", "status"),
	],
	["events", "/events"],
	[
		"events by types, a walk per type",
		"/events?type=pet.created&type=order.placed",
		byIndexOn("events", "type"),
	],
	["events of one resource", "/events?subject=/pets/1", byIndexOn("events", "subject")],
];

describe("lists walk an index from the cursor and stop at the page", () => {
	it.each(lists)("%s", async (_, path, filterIndex) => {
		const statements = await statementsOf(path);
		expect(statements.length).toBeGreaterThan(0);
		for (const statement of statements) {
			const steps = await plan(statement);
			expect(steps.filter(fullScanOrSort), steps.join("\n")).toEqual([]);
			if (filterIndex) expect(steps.some(filterIndex), steps.join("\n")).toBe(true);
		}
	});

	it("walks once per status asked for", async () => {
		expect(await statementsOf("/pets?status=pending&status=sold")).toHaveLength(2);
		expect(await statementsOf("/pets")).toHaveLength(1);
	});
});
