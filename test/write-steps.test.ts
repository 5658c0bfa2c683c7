import { env } from "cloudflare:workers";
import { and, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { chain, preparedWrite, write } from "../src/db/batch";
import type { Slot } from "../src/db/prepared";
import { categories } from "../src/db/schema";
import { uniqueName } from "./support/api";
import { watchedD1 } from "./support/d1";

const db = drizzle(env.DB);

/** A category named `name`, and the statement that describes it when `condition` holds. */
const scratch = (name: string) => ({
	insert: db
		.insert(categories)
		.values({ name, nameKey: name })
		.returning({ id: categories.id }),
	describe: (condition?: ReturnType<typeof and>) =>
		db
			.update(categories)
			.set({ description: "described" })
			.where(and(eq(categories.nameKey, name), condition)),
	read: db
		.select({ description: categories.description })
		.from(categories)
		.where(eq(categories.nameKey, name)),
});

describe("a write's named steps", () => {
	it("answers every step by its name, a chain's links by theirs", async () => {
		const a = scratch(uniqueName("Step"));
		const result = await write(db, {
			created: chain({ category: a.insert, described: a.describe }),
			skipped: undefined,
			read: a.read,
		});
		expect(result.created.category).toEqual([{ id: expect.any(Number) }]);
		expect(result.created.described.meta.changes).toBe(1);
		expect(result.skipped).toBeUndefined();
		expect(result.read).toEqual([{ description: "described" }]);
	});

	it("runs a chain's link only when the link right before it changed a row, whatever ran before the chain", async () => {
		const a = scratch(uniqueName("Tied"));
		const b = scratch(uniqueName("Tied"));
		const { tied } = await write(db, {
			// Changes a row, right before the chain.
			before: a.insert,
			tied: chain({
				// Changes nothing: no category has this name yet.
				nothing: b.describe(),
				follow: (changed) => a.describe(changed),
			}),
		});
		expect(tied.follow.meta.changes).toBe(0);
		expect(await a.read).toEqual([{ description: null }]);
	});

	it("leaves out a link that is undefined, tying the next to the one before it", async () => {
		const a = scratch(uniqueName("Gap"));
		const { tied } = await write(db, {
			tied: chain({
				first: a.insert,
				absent: undefined,
				follow: (changed) => a.describe(changed),
			}),
		});
		expect(tied.follow.meta.changes).toBe(1);
	});
});

describe("a prepared write", () => {
	/** Describes the category `name`, and answers its description. */
	const describing = preparedWrite(
		(db, $: Slot<{ name: string; description: string }>, _: "describe") => ({
			described: db
				.update(categories)
				.set({ description: sql`${$("description")}` })
				.where(eq(categories.nameKey, $("name")))
				.returning({ description: categories.description }),
		}),
	);

	it("binds each request's own values to the statements it built once", async () => {
		const [a, b] = [uniqueName("Prepared"), uniqueName("Prepared")];
		await write(db, { a: scratch(a).insert, b: scratch(b).insert });
		const d1 = watchedD1(env.DB);
		const watched = drizzle(d1.binding);
		const first = await describing(watched, "describe", {
			name: a,
			description: "first",
		});
		const second = await describing(watched, "describe", {
			name: b,
			description: "second",
		});
		expect(first.described).toEqual([{ description: "first" }]);
		expect(second.described).toEqual([{ description: "second" }]);
		const [one, two] = d1.sent();
		expect(two.sql).toBe(one.sql);
		expect([one.params, two.params]).toEqual([
			["first", a],
			["second", b],
		]);
	});
});
