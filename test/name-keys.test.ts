import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { rekeyNames } from "../scripts/rekey-names";
import {
	anonymous,
	type Category,
	createCategory,
	expectError,
	send,
	uniqueName,
} from "./support/api";

/** The folding before compatibility forms (NFC): the keys a database written by an earlier version holds. */
const earlierKey = (name: string) =>
	name
		.replace(/\p{Default_Ignorable_Code_Point}/gu, "")
		.normalize("NFC")
		.toUpperCase()
		.toLowerCase();

/** Stores a row as an earlier version wrote it, and answers its id. */
const storedEarlier = async (table: "categories" | "pets", name: string, categoryId?: number) => {
	const row = await env.DB.prepare(
		table === "categories"
			? "INSERT INTO categories (name, name_key) VALUES (?1, ?2) RETURNING id"
			: "INSERT INTO pets (name, name_key, category_id) VALUES (?1, ?2, ?3) RETURNING id",
	)
		.bind(name, earlierKey(name), ...(categoryId ? [categoryId] : []))
		.first<{ id: number }>();
	return row?.id as number;
};

/** The name-key migration (npm run db:rekey), over the test database. */
const rekey = () =>
	rekeyNames(
		async (sql) => (await env.DB.prepare(sql).all()).results,
		(statements) => env.DB.batch(statements.map((sql) => env.DB.prepare(sql))),
	);

describe("the name-key migration (npm run db:rekey)", () => {
	it("refolds the keys an earlier folding stored: the category's name is taken and the pet is found", async () => {
		const suffix = uniqueName("");
		const categoryId = await storedEarlier("categories", `Ｃａｔ${suffix}`);
		const petId = await storedEarlier("pets", `Ｔｏｍ${suffix}`, categoryId);
		expect(await rekey()).toEqual([]);
		await expectError(
			await send("POST", "/categories", { name: `cat${suffix}` }),
			409,
			"category_exists",
		);
		const found = await anonymous(`/pets?categoryId=${categoryId}&name=TOM`);
		expect((await found.json<{ id: number }[]>()).map(({ id }) => id)).toEqual([petId]);
		expect(await rekey()).toEqual([]);
	});

	it("refolds a capital sharp s (ẞ), which an earlier folding kept as ß, to the key of SS", async () => {
		const suffix = uniqueName("");
		const categoryId = await storedEarlier("categories", `Straẞe${suffix}`);
		const petId = await storedEarlier("pets", `GROẞER Kater${suffix}`, categoryId);
		expect(await rekey()).toEqual([]);
		await expectError(
			await send("POST", "/categories", { name: `Strasse${suffix}` }),
			409,
			"category_exists",
		);
		const found = await anonymous(`/pets?categoryId=${categoryId}&name=grosser`);
		expect((await found.json<{ id: number }[]>()).map(({ id }) => id)).toEqual([petId]);
	});

	it("reports a category whose new key another holds, and merges nothing", async () => {
		const suffix = uniqueName("");
		const dog = await createCategory(`Dog${suffix}`);
		const twin = await storedEarlier("categories", `Ｄｏｇ${suffix}`);
		const collision = {
			table: "categories",
			id: twin,
			name: `Ｄｏｇ${suffix}`,
			key: earlierKey(`Ｄｏｇ${suffix}`),
			next: `dog${suffix}`,
			heldBy: { id: dog.id, name: dog.name },
		};
		expect(await rekey()).toEqual([collision]);
		for (const { id, name } of [dog, collision]) {
			const response = await anonymous(`/categories/${id}`);
			expect((await response.json<Category>()).name).toBe(name);
		}
		// Still reported until someone resolves it; a rename does, and the next run finds nothing left.
		expect(await rekey()).toEqual([collision]);
		await send("PATCH", `/categories/${twin}`, { name: `Wolf${suffix}` });
		expect(await rekey()).toEqual([]);
	});
});
