import { describe, expect, it } from "vitest";
import {
	api,
	type Category,
	collectPages,
	createCategory,
	createPet,
	expectError,
	send,
	uniqueName,
} from "./support/api";
import { charactersNoNameHolds, namesWithTheirOwnInvisibles } from "./support/arbitraries";

describe("POST /categories", () => {
	it("creates the category with a Location", async () => {
		const response = await send("POST", "/categories", {
			name: " Parrots ",
			description: "Talkative.",
		});
		expect(response.status).toBe(201);
		const category = await response.json<Category>();
		expect(category).toEqual({
			id: expect.any(Number),
			name: "Parrots",
			description: "Talkative.",
		});
		expect(response.headers.get("location")).toBe(`/categories/${category.id}`);
	});

	it("omits an absent description", async () => {
		const category = await createCategory();
		expect(Object.keys(category).sort()).toEqual(["id", "name"]);
	});

	it("answers 409 category_exists for a name taken in any letter case", async () => {
		const name = uniqueName("Hamster");
		await createCategory(name);
		await expectError(
			await send("POST", "/categories", { name: name.toUpperCase() }),
			409,
			"category_exists",
		);
	});

	it.each([
		["Öl-Äffchen", "öl-äffchen"],
		["Straße", "STRASSE"],
		["Straẞe", "Straße"],
		["ΟΔΟΣ", "οδοσ"],
		["Ǆemal", "ǆemal"],
		["Ｄｏｇ", "dog"],
		["ﬁsh ①", "FISH 1"],
	])("treats %s and %s as the same name", async (first, second) => {
		const suffix = uniqueName("");
		await createCategory(`${first}${suffix}`);
		await expectError(
			await send("POST", "/categories", { name: `${second}${suffix}` }),
			409,
			"category_exists",
		);
	});

	it("treats a name that differs only by a blank Braille cell as the same name", async () => {
		const twin = "Do\u2800g\u2800";
		const suffix = uniqueName("");
		await createCategory(`Dog${suffix}`);
		await expectError(
			await send("POST", "/categories", { name: `${twin}${suffix}` }),
			409,
			"category_exists",
		);
	});

	it.each([
		["Dog with a hidden tag (U+E0041)", "Dog\u{e0041}"],
		["a zero-width space", "D\u200bog"],
		["a soft hyphen", "Do\u00adg"],
		["a zero-width joiner outside a word", "\u200dDog"],
		["a variation selector outside an emoji", "Do\ufe0fg"],
		["a lone tag sequence", "\u{e0067}\u{e0062}\u{e007f}"],
	])("refuses %s: invisible text an agent or a reader would not see", async (_, name) => {
		const error = await expectError(
			await send("POST", "/categories", { name: `${name}${uniqueName("")}` }),
			400,
			"validation_error",
		);
		expect(error.details).toEqual([
			{ path: "body.name", message: "must not contain invisible characters" },
		]);
	});

	it.each(charactersNoNameHolds)(
		"refuses a name holding %s, saying why",
		async (_, character, message) => {
			const error = await expectError(
				await send("POST", "/categories", { name: `Ca${character}t ${uniqueName("")}` }),
				400,
				"validation_error",
			);
			expect(error.details).toEqual([{ path: "body.name", message }]);
		},
	);

	it("refuses a twin of Cat hidden by an interlinear annotation, rather than keeping a second Cat", async () => {
		const suffix = uniqueName("");
		const cat = await createCategory(`Cat${suffix}`);
		const error = await expectError(
			await send("POST", "/categories", { name: `Ca\ufffbt${suffix}` }),
			400,
			"validation_error",
		);
		expect(error.details).toEqual([
			{ path: "body.name", message: "must not contain invisible characters" },
		]);
		const { items } = await collectPages<Category>("/categories?limit=100");
		// No other category reads as this Cat once its format characters are out of sight.
		expect(items.filter(({ name }) => name.replace(/\p{Cf}/gu, "") === cat.name)).toEqual([cat]);
	});

	it.each(namesWithTheirOwnInvisibles)(
		"takes %s, whose invisible characters belong to it",
		async (_, name) => {
			const stored = await createCategory(`${name} ${uniqueName("")}`);
			expect(stored.name.startsWith(name)).toBe(true);
		},
	);

	it.each([
		["invisible", "\u200b", "must contain a visible character"],
		["only spaces and joiners", "\u200d \u2060", "must contain a visible character"],
		["a blank Braille cell", "\u2800", "must contain a visible character"],
		["Hangul fillers", "\u3164\u115f\u1160\uffa0", "must contain a visible character"],
		["combining marks alone", "\u0301\u0308", "must contain a visible character"],
		["a format character", "\u0600", "must contain a visible character"],
		["two lines (U+2028)", "Dog\u2028Cat", "must be one line of text without control characters"],
		[
			"two paragraphs (U+2029)",
			"Dog\u2029Cat",
			"must be one line of text without control characters",
		],
		[
			"a right-to-left override",
			"Dog\u202egpj",
			"must not contain bidirectional control characters",
		],
		[
			"a bidirectional isolate",
			"\u2067Dog\u2069",
			"must not contain bidirectional control characters",
		],
	])("refuses a name that is %s", async (_, name, message) => {
		const error = await expectError(
			await send("POST", "/categories", { name }),
			400,
			"validation_error",
		);
		expect(error.details).toEqual([{ path: "body.name", message }]);
	});

	it("compares a renamed category by its new name", async () => {
		const category = await createCategory();
		const name = uniqueName("Ñandú");
		await send("PATCH", `/categories/${category.id}`, { name });
		await expectError(
			await send("POST", "/categories", { name: name.toUpperCase() }),
			409,
			"category_exists",
		);
	});

	it.each([
		["an empty name", { name: "" }, "body.name"],
		["a blank name", { name: "  " }, "body.name"],
		["a name over 50 characters", { name: "x".repeat(51) }, "body.name"],
		[
			"a description over 500 characters",
			{ name: "Ok", description: "x".repeat(501) },
			"body.description",
		],
		["an unknown field", { name: "Ok", colour: "red" }, "body.colour"],
		["a name with a NUL", { name: "Dog\u0000" }, "body.name"],
		["a description with a NUL", { name: "Ok", description: "a\u0000b" }, "body.description"],
		[
			"a description with a lone surrogate",
			{ name: "Ok", description: "\udc36" },
			"body.description",
		],
		["a name that is not a string", { name: 7 }, "body.name"],
	])("rejects %s", async (_, body, path) => {
		const error = await expectError(
			await send("POST", "/categories", body),
			400,
			"validation_error",
		);
		expect(error.details?.map((detail) => detail.path)).toContain(path);
	});

	it("accepts a name of 50 and a description of 500 characters, and an empty description", async () => {
		const long = await send("POST", "/categories", {
			name: "y".repeat(50),
			description: "d".repeat(500),
		});
		expect(long.status).toBe(201);
		const empty = await send("POST", "/categories", { name: uniqueName("Empty"), description: "" });
		expect(await empty.json()).toMatchObject({ description: "" });
	});
});

describe("GET /categories/{categoryId}", () => {
	it("returns the category", async () => {
		const category = await createCategory();
		const response = await api(`/categories/${category.id}`);
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual(category);
	});

	it("answers 404 for a category that does not exist and 400 for a malformed id", async () => {
		await expectError(await api("/categories/424242"), 404, "not_found");
		const error = await expectError(await api("/categories/dog"), 400, "validation_error");
		expect(error.details?.[0]?.path).toBe("path.categoryId");
	});
});

describe("PUT /categories/{categoryId}", () => {
	it("replaces every field, removing an omitted description", async () => {
		const created = await send("POST", "/categories", {
			name: uniqueName("Fish"),
			description: "Wet.",
		});
		const category = await created.json<Category>();
		const name = uniqueName("Fishes");
		const response = await send("PUT", `/categories/${category.id}`, { name });
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ id: category.id, name });
		expect(await (await api(`/categories/${category.id}`)).json()).toEqual({
			id: category.id,
			name,
		});
	});

	it("lets a category keep its own name in another letter case", async () => {
		const category = await createCategory();
		const response = await send("PUT", `/categories/${category.id}`, {
			name: category.name.toLowerCase(),
		});
		expect(response.status).toBe(200);
	});

	it("answers 409 for another category's name and 404 for a missing category", async () => {
		const taken = await createCategory();
		const category = await createCategory();
		await expectError(
			await send("PUT", `/categories/${category.id}`, { name: taken.name }),
			409,
			"category_exists",
		);
		expect(await (await api(`/categories/${category.id}`)).json()).toEqual(category);
		await expectError(
			await send("PUT", "/categories/424242", { name: uniqueName("Ghost") }),
			404,
			"not_found",
		);
	});
});

describe("PATCH /categories/{categoryId}", () => {
	it("changes only the given fields", async () => {
		const category = await createCategory();
		const response = await send("PATCH", `/categories/${category.id}`, {
			description: "Now described.",
		});
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ ...category, description: "Now described." });
	});

	it("rejects an empty patch, a taken name and a missing category", async () => {
		const taken = await createCategory();
		const category = await createCategory();
		await expectError(
			await send("PATCH", `/categories/${category.id}`, {}),
			400,
			"validation_error",
		);
		await expectError(
			await send("PATCH", `/categories/${category.id}`, { name: taken.name.toUpperCase() }),
			409,
			"category_exists",
		);
		await expectError(
			await send("PATCH", "/categories/424242", { description: "x" }),
			404,
			"not_found",
		);
	});
});

describe("DELETE /categories/{categoryId}", () => {
	it("deletes a category without pets", async () => {
		const category = await createCategory();
		const response = await api(`/categories/${category.id}`, { method: "DELETE" });
		expect(response.status).toBe(204);
		await expectError(await api(`/categories/${category.id}`), 404, "not_found");
	});

	it("answers 409 category_in_use while pets belong to it, and keeps it", async () => {
		const category = await createCategory();
		await createPet(category.id);
		await expectError(
			await api(`/categories/${category.id}`, { method: "DELETE" }),
			409,
			"category_in_use",
		);
		expect((await api(`/categories/${category.id}`)).status).toBe(200);
	});

	it("answers 404 for a category that does not exist", async () => {
		await expectError(await api("/categories/424242", { method: "DELETE" }), 404, "not_found");
	});
});

describe("GET /categories", () => {
	it("pages through every category in id order", async () => {
		for (let i = 0; i < 5; i++) await createCategory();
		const all = await collectPages<Category>("/categories?limit=100");
		const paged = await collectPages<Category>("/categories?limit=2");
		expect(paged.items).toEqual(all.items);
		expect(paged.pages.every((size) => size <= 2)).toBe(true);
		const ids = paged.items.map((category) => category.id);
		expect(ids).toEqual([...ids].sort((a, b) => a - b));
	});

	it("rejects a limit out of range and a foreign cursor", async () => {
		await expectError(await api("/categories?limit=101"), 400, "validation_error");
		await expectError(await api("/categories?cursor=abc"), 400, "validation_error");
	});
});
