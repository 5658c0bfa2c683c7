import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { testApp } from "./support/api";
import { watchedD1 } from "./support/d1";

// Every list request examines a bounded number of rows, whatever its filters. On 10,000 pets, each list
// and filter (the ones that match nothing among many rows above all) reads no more than a page's worth of rows
// and the name window: never the table.

const pets = 10_000;
/** Rows a request may read, whatever the table holds: far fewer than the table. */
const bound = 3_000;

/** Rows SQLite read for the statements a request sent to D1 (D1's `rows_read`), and its status. */
const rowsRead = async (path: string) => {
	const d1 = watchedD1(env.DB);
	const response = await testApp({ bindings: { DB: d1.binding } }).anonymous(path);
	let read = 0;
	for (const { sql, params } of d1.sent()) {
		const { meta } = await env.DB.prepare(sql)
			.bind(...params)
			.all();
		read += meta.rows_read;
	}
	return { status: response.status, read };
};

let many: number;
let other: number;
let petId: number;

beforeAll(async () => {
	const category = (name: string) =>
		env.DB.prepare("INSERT INTO categories (name, name_key) VALUES (?, ?) RETURNING id")
			.bind(name, name.toLowerCase())
			.first<number>("id");
	many = (await category("Bounded many")) ?? 0;
	other = (await category("Bounded other")) ?? 0;
	// Every pet of the big category is sold and named "Bounded pet N": a filter for available ones, or for a name
	// with another category, matches none of them.
	await env.DB.prepare(
		`INSERT INTO pets (name, name_key, category_id, status)
		WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
		SELECT 'Bounded pet ' || i, 'bounded pet ' || i, ?, 'sold' FROM n`,
	)
		.bind(pets, many)
		.run();
	petId = (await env.DB.prepare("SELECT max(id) AS id FROM pets").first<number>("id")) ?? 0;
	await env.DB.batch([
		env.DB.prepare(
			`INSERT INTO orders (pet_id, quantity, ship_date, complete)
			WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
			SELECT ?, 1, '2027-01-01T00:00:00.000Z', 1 FROM n`,
		).bind(petId),
		env.DB.prepare(
			`INSERT INTO events (type, subject, created_at, data)
			WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
			SELECT 'pet.updated', '/pets/' || ?, '2027-01-01T00:00:00.000Z', '{}' FROM n`,
		).bind(petId),
	]);
});

describe("every list request examines a bounded number of rows", () => {
	it.each([
		["every pet", () => "/pets"],
		["available pets, none among 10,000", () => "/pets?status=available"],
		[
			"available pets of a category whose 10,000 pets are sold",
			() => `/pets?categoryId=${many}&status=available`,
		],
		["a name every pet holds", () => "/pets?name=bounded"],
		["a name every pet holds, in another category", () => `/pets?name=bounded&categoryId=${other}`],
		[
			"a name every pet holds, with statuses none has",
			() => "/pets?name=bounded&status=available&status=pending",
		],
		[
			"open orders of a pet whose 3,000 orders are complete",
			() => `/store/orders?petId=${petId}&complete=false`,
		],
		[
			"events of one type of a resource with 3,000 of another",
			() => `/events?subject=/pets/${petId}&type=pet.created`,
		],
		["available inventory, none among 10,000", () => "/store/inventory?status=available"],
	])("%s", async (_, path) => {
		const { status, read } = await rowsRead(path());
		expect(status).toBe(200);
		expect(read).toBeLessThanOrEqual(bound);
	});

	it("pages through a broad name to the end, each page within the bound", async () => {
		let path: string | undefined = `/pets?name=bounded&categoryId=${other}`;
		let pages = 0;
		while (path) {
			const d1 = watchedD1(env.DB);
			const response = await testApp({ bindings: { DB: d1.binding } }).anonymous(path);
			expect(response.status).toBe(200);
			expect(await response.json()).toEqual([]);
			const next = /<([^>]+)>; rel="next"/.exec(response.headers.get("link") ?? "")?.[1];
			path = next;
			pages++;
		}
		expect(pages).toBeGreaterThan(1);
	});
});
