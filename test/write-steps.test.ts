import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { category } from "../src/db/resources";
import { categories, events, idempotencyKeys } from "../src/db/schema";
import { changeOne, create, type WriteContext } from "../src/db/write";
import { ApiError } from "../src/models/error";
import { testNow, uniqueName } from "./support/api";
import { watchedD1 } from "./support/d1";

// The one write idiom (src/db/write.ts), against the real D1: a change runs only under its conditions, records its
// event only when it changed a row, and says why it did not.

const db = drizzle(env.DB);
const ctx = (more: Partial<WriteContext> = {}): WriteContext => ({ db, now: testNow, ...more });

/** The events recorded so far. */
const eventCount = async () => (await db.select({ n: sql<number>`count(*)` }).from(events))[0].n;

/** Creates a category named `name`, unless `refuse`; its key's record is tied to the insert. */
const createCategory = (context: WriteContext, name: string, refuse = false) =>
	create(context, category, {
		values: { name, nameKey: name },
		when: sql`NOT ${refuse ? 1 : 0}`,
		events: ["category.created"],
		refused: new ApiError("category_exists"),
	});

const newCategory = () => createCategory(ctx(), uniqueName("step"));

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
		const changed = await changeOne(
			{ db: drizzle(d1.binding), now: testNow, ifMatch: [etag] },
			category,
			id,
			{ set: { description: "changed" }, event: "category.updated" },
		);
		expect(changed).toMatchObject({ id, description: "changed" });
		expect(changed.etag).not.toBe(etag);
		expect(d1.log().map((call) => call.method)).toEqual(["batch"]);
		expect(await eventCount()).toBe(before + 1);
	});

	it("says why nothing changed (missing, stale, refused) and then records nothing", async () => {
		const { id } = await newCategory();
		const before = await eventCount();
		const change = (more: Partial<WriteContext>, refused: boolean, at = id) =>
			codeOf(
				changeOne(ctx(more), category, at, {
					set: { description: "never" },
					refuse: { when: sql`${refused ? 1 : 0}`, error: new ApiError("category_in_use") },
					event: "category.updated",
				}),
			);
		expect(await change({}, false, 9_000_000)).toBe("not_found");
		expect(await change({ ifMatch: ['"999"'] }, false)).toBe("precondition_failed");
		expect(await change({}, true)).toBe("category_in_use");
		expect(await eventCount()).toBe(before);
		const [row] = await db
			.select({ description: categories.description })
			.from(categories)
			.where(eq(categories.id, id));
		expect(row.description).toBeNull();
	});

	it("answers an unchanged row as it is when the no-op condition holds, recording nothing", async () => {
		const { id, etag } = await newCategory();
		const before = await eventCount();
		const answered = await changeOne(ctx(), category, id, {
			set: { description: "never" },
			refuse: { when: sql`1`, error: new ApiError("category_in_use") },
			unchangedWhen: sql`1`,
			event: "category.updated",
		});
		expect(answered).toMatchObject({ id, etag });
		expect(await eventCount()).toBe(before);
	});

	it("records a first change's event only when that change changed a row, and makes the change either way", async () => {
		const { id } = await newCategory();
		const before = await eventCount();
		const describe = (description: string) =>
			changeOne(ctx(), category, id, {
				set: { name: uniqueName("Renamed") },
				first: (allowed) => ({
					change: db
						.update(categories)
						.set({ description })
						.where(sql`${allowed} AND ${categories.description} IS NOT ${description}`),
					event: { type: "category.updated", resource: category, key: id },
				}),
				event: "category.updated",
			});
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
