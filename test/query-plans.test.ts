import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openSession } from "../src/db/client";
import { listInventory } from "../src/resources/inventory/queries";
import { listOrders } from "../src/resources/orders/queries";
import { listPets } from "../src/resources/pets/queries";

const { db } = openSession(env.DB, { write: false });
const page = { after: 0, limit: 20 };

/** The list queries the API runs, with every filter it takes. */
const lists = {
	pets: listPets(db, page),
	"pets by status": listPets(db, { ...page, status: ["sold"] }),
	"pets by statuses": listPets(db, { ...page, status: ["available", "sold"] }),
	"pets by category": listPets(db, { ...page, categoryId: 1 }),
	"pets by name": listPets(db, { ...page, name: "rex" }),
	"pets by every filter": listPets(db, {
		...page,
		status: ["available"],
		categoryId: 1,
		name: "rex",
	}),
	orders: listOrders(db, page),
	"orders by pet": listOrders(db, { ...page, petId: 1 }),
	"orders by completion": listOrders(db, { ...page, complete: false }),
	"orders by pet and completion": listOrders(db, {
		...page,
		petId: 1,
		complete: true,
	}),
	inventory: listInventory(db, page),
	"inventory by status": listInventory(db, { ...page, status: ["pending"] }),
};

const plan = async (query: { toSQL(): { sql: string; params: unknown[] } }) => {
	const { sql, params } = query.toSQL();
	const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
		.bind(...params)
		.all<{ detail: string }>();
	return results.map((row) => row.detail);
};

describe("list queries use an index", () => {
	it.each(Object.entries(lists))(
		"%s searches by index, never scanning a table",
		async (_, query) => {
			const steps = await plan(query);
			expect(steps.some((step) => step.startsWith("SEARCH"))).toBe(true);
			expect(steps.filter((step) => /^SCAN /.test(step))).toEqual([]);
		},
	);

	it("walks a single-valued filter in id order, so a page stops at its limit", async () => {
		for (const query of [
			lists["pets by status"],
			lists["pets by category"],
			lists["orders by pet"],
			lists["orders by completion"],
		]) {
			expect(await plan(query)).not.toContain("USE TEMP B-TREE FOR ORDER BY");
		}
	});
});
