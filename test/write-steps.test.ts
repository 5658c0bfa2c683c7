import { env } from "cloudflare:workers";
import { desc, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { category } from "../src/db/resources";
import { categories, events, idempotencyKeys } from "../src/db/schema";
import { declareChange, declareCreate, type WriteContext } from "../src/db/write";
import { ApiError } from "../src/models/error";
import { deleteCategory } from "../src/resources/categories/queries";
import { testNow, uniqueName } from "./support/api";
import { watchedD1 } from "./support/d1";

// The one write idiom (src/db/write.ts), against the real D1: a change runs only under its conditions, records its
// event only when it changed a row, and says why it did not.

const db = drizzle(env.DB);
const ctx = (more: Partial<WriteContext> = {}): WriteContext => ({ db, now: testNow, ...more });

/** The events recorded so far. */
const eventCount = async () => (await db.select({ n: sql<number>`count(*)` }).from(events))[0].n;

/** Creates a category, or never (its condition never holds); its key's record is tied to the insert. */
const creating = declareCreate(category, () => ({
	events: ["category.created"],
	refused: () => new ApiError("category_exists"),
}));
const neverCreating = declareCreate(category, () => ({
	when: sql`0`,
	events: ["category.created"],
	refused: () => new ApiError("category_exists"),
}));

/** Creates a category named `name`, unless `refuse`. */
const createCategory = (context: WriteContext, name: string, refuse = false) =>
	(refuse ? neverCreating : creating)(context, { name, nameKey: name });

const newCategory = () => createCategory(ctx(), uniqueName("step"));

/** Sets a category's fields, with its event. */
const changing = declareChange(category, () => ({ event: "category.updated" }));

const descriptionOf = async (id: number) =>
	(
		await db
			.select({ description: categories.description })
			.from(categories)
			.where(eq(categories.id, id))
	)[0].description;

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
			set: { description: "changed" },
		});
		expect(changed).toMatchObject({ id, description: "changed" });
		expect(changed.etag).not.toBe(etag);
		expect(d1.log().map((call) => call.method)).toEqual(["batch"]);
		expect(await eventCount()).toBe(before + 1);
	});

	it("binds each request's own values into the statements its declaration built", async () => {
		const [one, two] = [await newCategory(), await newCategory()];
		const d1 = watchedD1(env.DB);
		const context = { db: drizzle(d1.binding), now: testNow };
		await changing(context, one.id, { set: { description: "one" } });
		await changing(context, two.id, { set: { description: "two" } });
		const [first, second] = d1.log().map((call) => call.statements);
		expect(second.map((statement) => statement.sql)).toEqual(
			first.map((statement) => statement.sql),
		);
		expect([await descriptionOf(one.id), await descriptionOf(two.id)]).toEqual(["one", "two"]);
	});

	it("builds each shape of a declaration apart: a PATCH, a PUT, with and without If-Match", async () => {
		const { id, etag } = await newCategory();
		const patched = await changing(ctx(), id, { set: { description: "kept" } });
		const name = uniqueName("Replaced");
		const replace = ctx({ replace: true, ifMatch: [patched.etag] });
		const replaced = await changing(replace, id, { set: { name, nameKey: name } });
		expect(replaced).toEqual({ id, name, etag: expect.any(String) });
		const again = await changing(ctx(), id, { set: { description: "back" } });
		expect(again).toMatchObject({ id, name, description: "back" });
		const stale = changing(ctx({ ifMatch: [etag] }), id, { set: { description: "stale" } });
		expect(await codeOf(stale)).toBe("precondition_failed");
		expect(await descriptionOf(id)).toBe("back");
	});

	it("records a deletion's id as a whole number, in its data and its subject", async () => {
		const { id } = await newCategory();
		await deleteCategory(ctx(), id);
		const recorded = await db
			.select({ data: sql<string>`${events.data}`, type: events.type })
			.from(events)
			.where(eq(events.subject, `/categories/${id}`))
			.orderBy(desc(events.id))
			.limit(1);
		expect(recorded).toEqual([{ data: `{"id":${id}}`, type: "category.deleted" }]);
	});

	it("says why nothing changed (missing, stale, refused) and then records nothing", async () => {
		const { id } = await newCategory();
		const before = await eventCount();
		const refusing = declareChange<typeof category, { refused: boolean }>(
			category,
			({ flags }) => ({
				refuse: {
					when: sql`${flags.refused ? 1 : 0}`,
					error: () => new ApiError("category_in_use"),
				},
				event: "category.updated",
			}),
		);
		const change = (more: Partial<WriteContext>, refused: boolean, at = id) =>
			codeOf(refusing(ctx(more), at, { set: { description: "never" }, flags: { refused } }));
		expect(await change({}, false, 9_000_000)).toBe("not_found");
		expect(await change({ ifMatch: ['"999"'] }, false)).toBe("precondition_failed");
		expect(await change({}, true)).toBe("category_in_use");
		expect(await eventCount()).toBe(before);
		expect(await descriptionOf(id)).toBeNull();
	});

	it("answers an unchanged row as it is when the no-op condition holds, recording nothing", async () => {
		const { id, etag } = await newCategory();
		const before = await eventCount();
		const keeping = declareChange(category, () => ({
			refuse: { when: sql`1`, error: () => new ApiError("category_in_use") },
			unchangedWhen: sql`1`,
			event: "category.updated",
		}));
		const answered = await keeping(ctx(), id, { set: { description: "never" } });
		expect(answered).toMatchObject({ id, etag });
		expect(await eventCount()).toBe(before);
	});

	it("records a first change's event only when that change changed a row, and makes the change either way", async () => {
		const { id } = await newCategory();
		const before = await eventCount();
		const describing = declareChange<typeof category, undefined, { description: string }>(
			category,
			({ id: key, values, db }) => ({
				first: (allowed) => ({
					change: db
						.update(categories)
						.set({ description: values.description })
						.where(sql`${allowed} AND ${categories.description} IS NOT ${values.description}`),
					event: { type: "category.updated", resource: category, key },
				}),
				event: "category.updated",
			}),
		);
		const describe = (description: string) =>
			describing(ctx(), id, { set: { name: uniqueName("Renamed") }, values: { description } });
		await describe("first");
		expect(await eventCount()).toBe(before + 2);
		await describe("first");
		expect(await eventCount()).toBe(before + 3);
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
