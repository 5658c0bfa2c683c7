import { env } from "cloudflare:workers";
import { desc, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { category } from "../src/db/resources";
import { categories, events, idempotencyKeys } from "../src/db/schema";
import {
	chained,
	changed,
	changeOne,
	createOne,
	removeOne,
	step,
	type WriteContext,
} from "../src/db/write";
import { ApiError } from "../src/models/error";
import { nameKey } from "../src/models/name-key";
import { testNow, uniqueName } from "./support/api";
import { watchedD1 } from "./support/d1";

// The one write idiom (src/db/write.ts), against the real D1: a change runs only under its conditions, records its
// event only when it changed a row, says why it did not, and checks the chain of its steps.

const db = drizzle(env.DB);
const ctx = (more: Partial<WriteContext> = {}): WriteContext => ({ db, now: testNow, ...more });

/** The events recorded so far. */
const eventCount = async () => (await db.select({ n: sql<number>`count(*)` }).from(events))[0].n;

/** Creates a category named `name`, with its event; never, when `refuse`. */
const createCategory = (context: WriteContext, name: string, refuse = false) =>
	createOne(context, category, {
		refuse: refuse ? [[sql`1`, () => new ApiError("category_exists")]] : [],
		steps: ({ insert, event }) => [insert({ name }), event("category.created")],
	});

const newCategory = () => createCategory(ctx(), uniqueName("step"));

/** Sets a category's fields, with its event. */
const changing = (
	context: WriteContext,
	id: number,
	set: { name?: string; description?: string },
) =>
	changeOne(context, category, id, {
		steps: ({ update, event }) => [update(set), event("category.updated")],
	});

const rowOf = async (id: number) =>
	(await db.select().from(categories).where(eq(categories.id, id)))[0];

const codeOf = (promise: Promise<unknown>) =>
	promise.then(
		() => "changed",
		(error: ApiError) => error.code,
	);

describe("a change of one resource", () => {
	it("answers the changed resource with its new ETag, and records its event, in one D1 call", async () => {
		const { id, etag } = await newCategory();
		const before = await eventCount();
		const d1 = watchedD1(env.DB);
		const changed = await changing({ db: drizzle(d1.binding), now: testNow, ifMatch: [etag] }, id, {
			description: "changed",
		});
		expect(changed).toMatchObject({ id, description: "changed" });
		expect(changed.etag).not.toBe(etag);
		expect(d1.log().map((call) => call.method)).toEqual(["batch"]);
		expect(await eventCount()).toBe(before + 1);
	});

	it("binds each request's own values: two changes of two resources change each its own", async () => {
		const [one, two] = [await newCategory(), await newCategory()];
		await changing(ctx(), one.id, { description: "one" });
		await changing(ctx(), two.id, { description: "two" });
		expect([(await rowOf(one.id)).description, (await rowOf(two.id)).description]).toEqual([
			"one",
			"two",
		]);
	});

	it("writes a name's fold beside it in every write, and a PUT clears what it does not carry", async () => {
		const { id } = await newCategory();
		const patched = await changing(ctx(), id, { description: "kept" });
		const name = `Ｒｅｐｌａｃｅｄ ${uniqueName("")}`;
		const replaced = await changing(ctx({ replace: true, ifMatch: [patched.etag] }), id, { name });
		expect(replaced).toEqual({ id, name, etag: expect.any(String) });
		expect((await rowOf(id)).nameKey).toBe(nameKey(name));
		const stale = changing(ctx({ ifMatch: [patched.etag] }), id, { description: "stale" });
		expect(await codeOf(stale)).toBe("precondition_failed");
		expect((await rowOf(id)).description).toBeNull();
	});

	it("records a deletion's id as a whole number, in its data and its subject", async () => {
		const { id } = await newCategory();
		await removeOne(ctx(), category, id, {
			steps: ({ remove, event }) => [remove(), event("category.deleted")],
		});
		const recorded = await db
			.select({ data: sql<string>`${events.data}`, type: events.type })
			.from(events)
			.where(eq(events.subject, `/categories/${id}`))
			.orderBy(desc(events.id))
			.limit(1);
		expect(recorded).toEqual([{ data: `{"id":${id}}`, type: "category.deleted" }]);
	});

	it("says why nothing changed (missing, stale, the first refusal that holds) and then records nothing", async () => {
		const { id } = await newCategory();
		const before = await eventCount();
		const change = (more: Partial<WriteContext>, refusals: boolean[], at = id) =>
			codeOf(
				changeOne(ctx(more), category, at, {
					refuse: refusals.map((holds, index) => [
						sql`${holds ? 1 : 0}`,
						() => new ApiError(index === 0 ? "category_in_use" : "category_exists"),
					]),
					steps: ({ update, event }) => [
						update({ description: "never" }),
						event("category.updated"),
					],
				}),
			);
		expect(await change({}, [false], 9_000_000)).toBe("not_found");
		expect(await change({ ifMatch: ['"999"'] }, [false])).toBe("precondition_failed");
		expect(await change({}, [true, true])).toBe("category_in_use");
		expect(await change({}, [false, true])).toBe("category_exists");
		expect(await eventCount()).toBe(before);
		expect((await rowOf(id)).description).toBeNull();
	});

	it("records a step's event only when that step changed a row, and runs the steps after it either way", async () => {
		const { id } = await newCategory();
		const before = await eventCount();
		const describe = (description: string) =>
			changeOne(ctx(), category, id, {
				steps: ({ allowed, update, event }) => [
					step(
						"description",
						db
							.update(categories)
							.set({ description })
							.where(sql`${allowed} AND ${categories.description} IS NOT ${description}`),
					),
					event("category.updated"),
					update({ name: uniqueName("Renamed") }),
					event("category.updated"),
				],
			});
		await describe("first");
		expect(await eventCount()).toBe(before + 2);
		await describe("first");
		expect(await eventCount()).toBe(before + 3);
	});

	it("fails loudly when a chained step after one that changed a row changes none: the chain after it would be lost", async () => {
		const { id } = await newCategory();
		const broken = changeOne(ctx(), category, id, {
			steps: ({ update, event }) => [
				update({ description: "chained" }),
				chained(
					"nothing",
					db.update(categories).set({ description: "x" }).where(sql`0 AND ${changed}`),
				),
				event("category.updated"),
			],
		});
		await expect(broken).rejects.toThrow(/step "nothing" is chained on "Category"/);
	});

	it("never binds a value it was not given: a change skips it, and an insert without a required one fails loudly", async () => {
		const { id, name } = await newCategory();
		const skipped = await changing(ctx(), id, { name: undefined, description: "given" });
		expect(skipped).toMatchObject({ name, description: "given" });
		const missing = createOne(ctx(), category, {
			steps: ({ insert }) => [insert({} as { name: string })],
		});
		await expect(missing).rejects.toThrow(/NOT NULL/);
	});
});

describe("a create", () => {
	it("ties its event and its key's record to the insert, even when a step before it changed a row", async () => {
		const key = { key: uniqueName("expired-key"), requestHash: "h" };
		// An expired record of the key: the create's first step forgets it, which changes a row.
		await db
			.insert(idempotencyKeys)
			.values({ ...key, body: "{}", etag: '"1"', createdAt: testNow - 48 * 3600_000 });
		const before = await eventCount();
		const refused = createCategory(
			ctx({ key: { ...key, onReplay: () => {} } }),
			uniqueName("never"),
			true,
		);
		expect(await codeOf(refused)).toBe("category_exists");
		expect(await eventCount()).toBe(before);
		expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key.key))).toEqual(
			[],
		);
	});
});
