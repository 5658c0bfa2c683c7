import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { nameKey } from "../src/models/name-key";
import {
	api,
	type Category,
	collectPages,
	createCategory,
	createPet,
	expectError,
	nextLink,
	type Pet,
	send,
	stockOf,
	uniqueName,
} from "./support/api";
import { charactersNoNameHolds, namesWithTheirOwnInvisibles } from "./support/arbitraries";

let category: Category;
beforeAll(async () => {
	category = await createCategory();
});

describe("POST /pets", () => {
	it("creates the pet with status available, a Location and an empty inventory item", async () => {
		const response = await send("POST", "/pets", { name: "  Rex  ", categoryId: category.id });
		expect(response.status).toBe(201);
		const pet = await response.json<Pet>();
		expect(pet).toEqual({
			id: expect.any(Number),
			name: "Rex",
			categoryId: category.id,
			status: "available",
		});
		expect(response.headers.get("location")).toBe(`/pets/${pet.id}`);
		expect(await stockOf(pet.id)).toBe(0);
	});

	it("keeps an explicit status", async () => {
		const pet = await createPet(category.id, { status: "pending" });
		expect(pet.status).toBe("pending");
	});

	it("answers 422 unknown_category for a category that does not exist, and stores nothing", async () => {
		const name = uniqueName("Ghost");
		const response = await send("POST", "/pets", { name, categoryId: 999_999 });
		await expectError(response, 422, "unknown_category");
		expect(await (await api(`/pets?name=${encodeURIComponent(name)}`)).json()).toEqual([]);
	});

	it.each([
		["a blank name", { name: "   " }, "body.name"],
		["a name over 100 characters", { name: "x".repeat(101) }, "body.name"],
		["a name with a NUL", { name: "Rex\u0000" }, "body.name"],
		["a name with a lone surrogate", { name: "Rex \ud83d" }, "body.name"],
		["a name over two lines", { name: "Rex\nthe second" }, "body.name"],
		["a missing name", { name: undefined }, "body.name"],
		["a missing categoryId", { categoryId: undefined }, "body.categoryId"],
		["a categoryId of 0", { categoryId: 0 }, "body.categoryId"],
		["a fractional categoryId", { categoryId: 1.5 }, "body.categoryId"],
		["a categoryId past 2^53-1", { categoryId: 2 ** 53 }, "body.categoryId"],
		["a categoryId as a string", { categoryId: "1" }, "body.categoryId"],
		["an unknown status", { status: "lost" }, "body.status"],
		["an unknown field", { colour: "brown" }, "body.colour"],
	])("rejects %s with a validation_error naming the field", async (_, fields, path) => {
		const response = await send("POST", "/pets", {
			name: "Rex",
			categoryId: category.id,
			...fields,
		});
		const error = await expectError(response, 400, "validation_error");
		expect(error.details?.map((detail) => detail.path)).toContain(path);
	});

	it("keeps a name in any script, emoji included, exactly as sent", async () => {
		const name = "Ṁöñ 猫 🐕‍🦺";
		expect((await createPet(category.id, { name })).name).toBe(name);
	});

	it.each(charactersNoNameHolds)(
		"refuses a name holding %s, saying why, and stores nothing",
		async (_, character, message) => {
			const petsOfTheCategory = async () =>
				(await collectPages(`/pets?categoryId=${category.id}&limit=100`)).items;
			const before = await petsOfTheCategory();
			const response = await send("POST", "/pets", {
				name: `Re${character}x`,
				categoryId: category.id,
			});
			const error = await expectError(response, 400, "validation_error");
			expect(error.details).toEqual([{ path: "body.name", message }]);
			expect(await petsOfTheCategory()).toEqual(before);
		},
	);

	it.each(namesWithTheirOwnInvisibles)(
		"keeps a name with %s exactly as sent: its invisible characters belong to it",
		async (_, name) => {
			expect((await createPet(category.id, { name })).name).toBe(name);
		},
	);

	it("accepts a name of exactly 100 characters", async () => {
		const pet = await createPet(category.id, { name: "x".repeat(100) });
		expect(pet.name).toHaveLength(100);
	});

	it("answers 400 malformed_json for a body that is not JSON", async () => {
		const response = await api("/pets", {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: '{"name": "Rex",',
		});
		await expectError(response, 400, "malformed_json");
	});

	it("answers 415 unsupported_media_type for a body that is not JSON", async () => {
		const response = await api("/pets", {
			method: "POST",
			headers: { "content-type": "text/plain" },
			body: "Rex",
		});
		await expectError(response, 415, "unsupported_media_type");
	});
});

describe("GET /pets/{petId}", () => {
	it("returns the pet", async () => {
		const pet = await createPet(category.id);
		const response = await api(`/pets/${pet.id}`);
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual(pet);
	});

	it("answers 404 not_found for a pet that does not exist", async () => {
		await expectError(await api("/pets/987654321"), 404, "not_found");
	});

	it("answers 404 for the largest id a client can hold", async () => {
		await expectError(await api(`/pets/${2 ** 53 - 1}`), 404, "not_found");
	});

	it.each([
		"0",
		"-1",
		"abc",
		"1.5",
		"1e3",
		"0x10",
		"%20 7",
		String(2 ** 53),
		"99999999999999999999999",
	])("rejects the id %j with a validation_error", async (id) => {
		const error = await expectError(await api(`/pets/${id}`), 400, "validation_error");
		expect(error.details?.[0]?.path).toBe("path.petId");
	});
});

describe("PUT /pets/{petId}", () => {
	it("replaces every field, resetting an omitted status to available", async () => {
		const pet = await createPet(category.id, { status: "sold" });
		const other = await createCategory();
		const response = await send("PUT", `/pets/${pet.id}`, {
			name: "Renamed",
			categoryId: other.id,
		});
		expect(response.status).toBe(200);
		const expected = { id: pet.id, name: "Renamed", categoryId: other.id, status: "available" };
		expect(await response.json()).toEqual(expected);
		expect(await (await api(`/pets/${pet.id}`)).json()).toEqual(expected);
	});

	it("answers 422 unknown_category and leaves the pet unchanged", async () => {
		const pet = await createPet(category.id);
		const response = await send("PUT", `/pets/${pet.id}`, { name: "Renamed", categoryId: 999_999 });
		await expectError(response, 422, "unknown_category");
		expect(await (await api(`/pets/${pet.id}`)).json()).toEqual(pet);
	});

	it("answers 404 for a pet that does not exist, even with an unknown category", async () => {
		const response = await send("PUT", "/pets/987654321", { name: "Nobody", categoryId: 999_999 });
		await expectError(response, 404, "not_found");
	});

	it("requires every field", async () => {
		const pet = await createPet(category.id);
		const response = await send("PUT", `/pets/${pet.id}`, { name: "Only" });
		await expectError(response, 400, "validation_error");
	});
});

describe("PATCH /pets/{petId}", () => {
	it("changes only the given fields", async () => {
		const pet = await createPet(category.id);
		const response = await send("PATCH", `/pets/${pet.id}`, { status: "sold" });
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ ...pet, status: "sold" });
	});

	it("moves the pet to another existing category", async () => {
		const pet = await createPet(category.id);
		const other = await createCategory();
		const response = await send("PATCH", `/pets/${pet.id}`, { categoryId: other.id });
		expect(await response.json()).toEqual({ ...pet, categoryId: other.id });
	});

	it("rejects an empty patch", async () => {
		const pet = await createPet(category.id);
		await expectError(await send("PATCH", `/pets/${pet.id}`, {}), 400, "validation_error");
	});

	it("rejects a name with a control character and leaves the pet unchanged", async () => {
		const pet = await createPet(category.id);
		await expectError(
			await send("PATCH", `/pets/${pet.id}`, { name: "\u0000" }),
			400,
			"validation_error",
		);
		expect(await (await api(`/pets/${pet.id}`)).json()).toEqual(pet);
	});

	it("rejects an unknown field and a blank name", async () => {
		const pet = await createPet(category.id);
		const error = await expectError(
			await send("PATCH", `/pets/${pet.id}`, { name: " ", owner: "me" }),
			400,
			"validation_error",
		);
		expect(error.details?.map((detail) => detail.path).sort()).toEqual(["body.name", "body.owner"]);
	});

	it("answers 422 for an unknown category and 404 for an unknown pet", async () => {
		const pet = await createPet(category.id);
		await expectError(
			await send("PATCH", `/pets/${pet.id}`, { categoryId: 999_999 }),
			422,
			"unknown_category",
		);
		await expectError(await send("PATCH", "/pets/987654321", { status: "sold" }), 404, "not_found");
	});
});

describe("DELETE /pets/{petId}", () => {
	it("deletes the pet and its inventory item", async () => {
		const pet = await createPet(category.id);
		const response = await api(`/pets/${pet.id}`, { method: "DELETE" });
		expect(response.status).toBe(204);
		expect(await response.text()).toBe("");
		await expectError(await api(`/pets/${pet.id}`), 404, "not_found");
		expect(await stockOf(pet.id)).toBeNull();
	});

	it("answers 404 for a pet that does not exist", async () => {
		await expectError(await api("/pets/987654321", { method: "DELETE" }), 404, "not_found");
	});
});

describe("GET /pets", () => {
	let dogs: Category;
	let cats: Category;
	let pets: Pet[];

	beforeAll(async () => {
		dogs = await createCategory(uniqueName("Dogs"));
		cats = await createCategory(uniqueName("Cats"));
		pets = [
			await createPet(dogs.id, { name: "Rex", status: "available" }),
			await createPet(dogs.id, { name: "T-Rex", status: "sold" }),
			await createPet(cats.id, { name: "Felix", status: "pending" }),
			await createPet(cats.id, { name: "100% cat", status: "available" }),
			await createPet(cats.id, { name: "snake_case", status: "sold" }),
		];
	});

	const names = async (query: string) => {
		const response = await api(`/pets?${query}`);
		expect(response.status).toBe(200);
		return (await response.json<Pet[]>()).map((pet) => pet.name);
	};

	/** The names of the cats whose name holds `name`. */
	const catsNamed = (name: string) =>
		names(`categoryId=${cats.id}&name=${encodeURIComponent(name)}`);

	it("filters by category", async () => {
		expect(await names(`categoryId=${dogs.id}`)).toEqual(["Rex", "T-Rex"]);
	});

	it("filters by one or several statuses", async () => {
		expect(await names(`categoryId=${cats.id}&status=sold`)).toEqual(["snake_case"]);
		expect(await names(`categoryId=${cats.id}&status=sold&status=pending`)).toEqual([
			"Felix",
			"snake_case",
		]);
	});

	it("ignores a status repeated any number of times", async () => {
		const query = Array.from({ length: 150 }, () => "status=pending").join("&");
		expect(await names(`categoryId=${cats.id}&${query}`)).toEqual(["Felix"]);
	});

	it("filters by a case-insensitive name substring", async () => {
		expect(await names(`categoryId=${dogs.id}&name=REX`)).toEqual(["Rex", "T-Rex"]);
	});

	it("folds letter case in any script, and compatibility forms", async () => {
		const pet = await createPet(cats.id, { name: "Ärgerlicher Kater" });
		expect(await names(`categoryId=${cats.id}&name=ÄRGERLICH`)).toEqual([pet.name]);
		expect(await names(`categoryId=${cats.id}&name=ärger`)).toEqual([pet.name]);
		expect(await names(`categoryId=${dogs.id}&name=ＲＥＸ`)).toEqual(["Rex", "T-Rex"]);
		await send("PATCH", `/pets/${pet.id}`, { name: "Übermut" });
		expect(await names(`categoryId=${cats.id}&name=ÜBER`)).toEqual(["Übermut"]);
		expect(await names(`categoryId=${cats.id}&name=ärger`)).toEqual([]);
		await api(`/pets/${pet.id}`, { method: "DELETE" });
		expect(await names(`categoryId=${cats.id}&name=ÜBER`)).toEqual([]);
	});

	it("folds the capital sharp s as its small letter and as SS", async () => {
		const own = await createCategory();
		const pet = await createPet(own.id, { name: "Großer Kater" });
		for (const name of ["GROẞER", "grosser", "GROSSER"]) {
			expect(await names(`categoryId=${own.id}&name=${encodeURIComponent(name)}`)).toEqual([
				pet.name,
			]);
		}
	});

	it("refuses a name filter of fewer than three visible characters, saying what to send", async () => {
		for (const name of [
			"%",
			"_",
			"re",
			"r\u200be",
			"   ",
			"\u00a0\u00a0a",
			"\u0301\u0301\u0301",
			"\u2800\u2800\u2800",
		]) {
			const error = await expectError(
				await api(`/pets?name=${encodeURIComponent(name)}`),
				400,
				"validation_error",
			);
			expect(error.details?.[0]).toMatchObject({ path: "query.name" });
			expect(error.details?.[0].message).toContain("at least 3");
		}
	});

	it("matches % and _ literally through the name index too", async () => {
		expect(await catsNamed("0% c")).toEqual(["100% cat"]);
		expect(await catsNamed("e_c")).toEqual(["snake_case"]);
		// As LIKE patterns these would match "100% cat" and "snake_case".
		expect(await catsNamed("0%c")).toEqual([]);
		expect(await catsNamed("a_e")).toEqual([]);
	});

	it("keeps the name index in step with every create, rename and delete", async () => {
		const pet = await createPet(cats.id, { name: "Indexed" });
		await send("PATCH", `/pets/${pet.id}`, { name: "Reindexed" });
		await api(`/pets/${pet.id}`, { method: "DELETE" });
		// FTS5 compares its index with the rows of `pets` and throws on any difference.
		const check = env.DB.prepare(
			"INSERT INTO pet_names (pet_names, rank) VALUES ('integrity-check', 1)",
		);
		await expect(check.run()).resolves.toMatchObject({ success: true });
	});

	it.each([
		[
			"quotes and search operators literally",
			'Say "hi" OR *purr*',
			['"HI" or *'],
			["hi OR purr", "NEAR(hi purr)"],
		],
	])("matches %s", async (_, name, matching, missing) => {
		const pet = await createPet(cats.id, { name });
		for (const filter of matching) {
			expect(await catsNamed(filter)).toEqual([pet.name]);
		}
		for (const filter of missing) expect(await catsNamed(filter)).toEqual([]);
		await api(`/pets/${pet.id}`, { method: "DELETE" });
	});

	it("matches a noncharacter an earlier version stored exactly, though the name index reads them alike", async () => {
		// A name takes no noncharacter now, but a row stored before that rule still may.
		const name = "x\uFFFEyz";
		const stored = await env.DB.prepare(
			"INSERT INTO pets (name, name_key, category_id) VALUES (?1, ?2, ?3) RETURNING id",
		)
			.bind(name, nameKey(name), cats.id)
			.first<{ id: number }>();
		expect(await catsNamed("x\uFFFEyz")).toEqual([name]);
		expect(await catsNamed("x\uFFFFyz")).toEqual([]);
		expect(await catsNamed("x\uFFFDyz")).toEqual([]);
		await env.DB.prepare("DELETE FROM pets WHERE id = ?").bind(stored?.id).run();
	});

	it("pages through several statuses and a name in id order", async () => {
		const bySold = await collectPages<Pet>(
			`/pets?categoryId=${cats.id}&status=sold&status=available&limit=1`,
		);
		expect(bySold).toEqual({ items: [pets[3], pets[4]], pages: [1, 1] });
		const byName = await collectPages<Pet>(
			`/pets?categoryId=${dogs.id}&name=rex&status=sold&status=available&limit=1`,
		);
		expect(byName).toEqual({ items: [pets[0], pets[1]], pages: [1, 1] });
	});

	it("returns an empty page when nothing matches", async () => {
		const response = await api(`/pets?categoryId=${dogs.id}&name=zebra`);
		expect(await response.json()).toEqual([]);
		expect(response.headers.get("link")).toBeNull();
	});

	it("rejects unknown statuses and malformed filters", async () => {
		await expectError(await api("/pets?status=lost"), 400, "validation_error");
		await expectError(await api("/pets?categoryId=x"), 400, "validation_error");
		await expectError(await api("/pets?name="), 400, "validation_error");
		// No name holds a NUL, and one would end the index's search phrase early.
		for (const name of ["%00", "%00rex", "re%00x"]) {
			await expectError(await api(`/pets?name=${name}`), 400, "validation_error");
		}
	});

	it("pages with limit and Link until the last page, without repeats or gaps", async () => {
		const { items, pages } = await collectPages<Pet>(`/pets?categoryId=${cats.id}&limit=2`);
		expect(pages).toEqual([2, 1]);
		expect(items).toEqual(pets.slice(2));
	});

	it("keeps the Link's other query parameters", async () => {
		const response = await api(`/pets?categoryId=${dogs.id}&limit=1&name=rex`);
		const link = new URL(nextLink(response) ?? "", "http://x");
		expect(link.pathname).toBe("/pets");
		expect(Object.fromEntries(link.searchParams)).toMatchObject({
			categoryId: String(dogs.id),
			name: "rex",
			limit: "1",
		});
	});

	it("stays stable while pets are inserted between pages", async () => {
		const herd = await createCategory();
		const first = [];
		for (let i = 0; i < 7; i++) first.push(await createPet(herd.id));
		const { items } = await collectPages<Pet>(`/pets?categoryId=${herd.id}&limit=3`, async () => {
			await Promise.all([createPet(herd.id), createPet(herd.id)]);
		});
		const ids = items.map((pet) => pet.id);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids).toEqual([...ids].sort((a, b) => a - b));
		expect(items.slice(0, first.length)).toEqual(first);
	});

	it.each(["0", "101", "-1", "ten", "2.5"])("rejects limit=%s", async (limit) => {
		const error = await expectError(await api(`/pets?limit=${limit}`), 400, "validation_error");
		expect(error.details?.[0]?.path).toBe("query.limit");
	});

	it("accepts limits at both bounds and defaults to 20", async () => {
		const herd = await createCategory();
		for (let i = 0; i < 21; i++) await createPet(herd.id);
		const sizes = async (query: string) =>
			(await (await api(`/pets?categoryId=${herd.id}${query}`)).json<Pet[]>()).length;
		expect(await sizes("&limit=1")).toBe(1);
		expect(await sizes("&limit=100")).toBe(21);
		expect(await sizes("")).toBe(20);
	});

	it("accepts only its own cursors, unedited and for the list they were issued for", async () => {
		const first = await api(`/pets?categoryId=${dogs.id}&limit=1`);
		const next = nextLink(first) ?? "";
		const cursor = new URL(next, "http://x").searchParams.get("cursor") ?? "";
		expect((await api(next)).status).toBe(200);
		const [position, tag] = cursor.split(".");
		const moved = `${(Number.parseInt(position, 36) + 1).toString(36)}.${tag}`;
		const edited = `${cursor.slice(0, -1)}${cursor.endsWith("A") ? "B" : "A"}`;
		for (const path of [
			`/pets?cursor=${moved}`,
			`/pets?cursor=${edited}`,
			`/categories?cursor=${cursor}`,
			`/store/orders?cursor=${cursor}`,
		]) {
			const error = await expectError(await api(path), 400, "validation_error");
			expect(error.details).toEqual([
				{ path: "query.cursor", message: "is not a cursor this API issued" },
			]);
		}
	});

	it.each([
		"nonsense",
		"YWZ0ZXI6MA",
		btoa("after:5"),
		"!!!",
		"1.AAAAAAAAAAAAAAAAAAAAAA",
		`${(2 ** 53).toString(36)}.AAAAAAAAAAAAAAAAAAAAAA`,
	])("rejects the cursor %j that the server did not issue", async (cursor) => {
		const error = await expectError(
			await api(`/pets?cursor=${encodeURIComponent(cursor)}`),
			400,
			"validation_error",
		);
		expect(error.details?.[0]?.path).toBe("query.cursor");
	});
});
