import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { nameKey } from "../src/models/name-key";
import {
	api,
	collectPages,
	createCategory,
	createPet,
	expectError,
	send,
	testNow,
	uniqueName,
} from "./support/api";

// What every write does, read through the API: it runs only under its conditions, records its event only when it
// changed a row, says why it did not, and never leaves half of itself behind.

type Event = { type: string; data: unknown };

/** The events recorded about `subject`, oldest first. */
const eventsOf = async (subject: string) =>
	(await collectPages<Event>(`/events?subject=${encodeURIComponent(subject)}`)).items;

/** The stored text of the newest event about `subject`, as the outbox hands it to webhooks. */
const storedEvent = (subject: string) =>
	env.DB.prepare("SELECT type, data FROM events WHERE subject = ? ORDER BY id DESC LIMIT 1")
		.bind(subject)
		.first<{ type: string; data: string }>();

const storedRow = (id: number) =>
	env.DB.prepare("SELECT name_key AS nameKey, description FROM categories WHERE id = ?")
		.bind(id)
		.first<{ nameKey: string; description: string | null }>();

describe("a change of one resource", () => {
	it("answers the changed resource with its new ETag, and records its event", async () => {
		const { id } = await createCategory();
		const etag = (await api(`/categories/${id}`)).headers.get("etag") ?? "";
		const changed = await send(
			"PATCH",
			`/categories/${id}`,
			{ description: "changed" },
			{ "if-match": etag },
		);
		expect(changed.status).toBe(200);
		expect(await changed.json()).toMatchObject({ id, description: "changed" });
		expect(changed.headers.get("etag")).not.toBe(etag);
		expect((await eventsOf(`/categories/${id}`)).map(({ type }) => type)).toEqual([
			"category.created",
			"category.updated",
		]);
	});

	it("binds each request's own values: two changes of two resources change each its own", async () => {
		const [one, two] = [await createCategory(), await createCategory()];
		await send("PATCH", `/categories/${one.id}`, { description: "one" });
		await send("PATCH", `/categories/${two.id}`, { description: "two" });
		expect([
			(await storedRow(one.id))?.description,
			(await storedRow(two.id))?.description,
		]).toEqual(["one", "two"]);
	});

	it("writes a name's fold beside it in every write, and a PUT clears what it does not carry", async () => {
		const { id } = await createCategory();
		const patched = await send("PATCH", `/categories/${id}`, { description: "kept" });
		const name = `Ｒｅｐｌａｃｅｄ ${uniqueName("")}`;
		const replaced = await send(
			"PUT",
			`/categories/${id}`,
			{ name },
			{ "if-match": patched.headers.get("etag") ?? "" },
		);
		expect(await replaced.json()).toEqual({ id, name });
		expect((await storedRow(id))?.nameKey).toBe(nameKey(name));
		const stale = await send(
			"PATCH",
			`/categories/${id}`,
			{ description: "stale" },
			{ "if-match": patched.headers.get("etag") ?? "" },
		);
		await expectError(stale, 412, "precondition_failed");
		expect((await storedRow(id))?.description).toBeNull();
	});

	it("keeps the fields a change does not give", async () => {
		const { id, name } = await createCategory();
		const changed = await send("PATCH", `/categories/${id}`, { description: "given" });
		expect(await changed.json()).toEqual({ id, name, description: "given" });
	});

	it("records a deletion's id as a whole number, in its data and its subject", async () => {
		const { id } = await createCategory();
		expect((await api(`/categories/${id}`, { method: "DELETE" })).status).toBe(204);
		expect(await storedEvent(`/categories/${id}`)).toEqual({
			data: `{"id":${id}}`,
			type: "category.deleted",
		});
	});

	it("says why nothing changed (missing, stale, then what refuses it) and then records nothing", async () => {
		const { id } = await createCategory();
		await createPet(id);
		const before = await eventsOf(`/categories/${id}`);
		const remove = (at: number, headers: Record<string, string> = {}) =>
			api(`/categories/${at}`, { method: "DELETE", headers });
		await expectError(await remove(9_000_000), 404, "not_found");
		await expectError(await remove(id, { "if-match": '"999"' }), 412, "precondition_failed");
		await expectError(await remove(id), 409, "category_in_use");
		expect(await eventsOf(`/categories/${id}`)).toEqual(before);
		expect((await api(`/categories/${id}`)).status).toBe(200);
	});

	it("records a statement's event only when that statement changed a row, and runs those after it either way", async () => {
		const { id: categoryId } = await createCategory();
		const { id } = await createPet(categoryId, { status: "available" });
		const types = async () => (await eventsOf(`/store/inventory/${id}`)).map(({ type }) => type);
		const before = await types();
		await send("PATCH", `/pets/${id}`, { status: "sold" });
		expect(await types()).toEqual([...before, "inventory.updated"]);
		// The same status again: the item does not move, and the pet's own change still records its event.
		const again = await send("PATCH", `/pets/${id}`, {
			status: "sold",
			name: uniqueName("Renamed"),
		});
		expect(again.status).toBe(200);
		expect(await types()).toEqual([...before, "inventory.updated"]);
		expect((await eventsOf(`/pets/${id}`)).map(({ type }) => type)).toEqual([
			"pet.created",
			"pet.updated",
			"pet.updated",
		]);
	});
});

describe("a replacement of a pet", () => {
	it("that clears its status (back to available) moves its inventory item, which records inventory.updated", async () => {
		const { id: categoryId } = await createCategory();
		const { id, name } = await createPet(categoryId, { status: "sold" });
		const types = async () => (await eventsOf(`/store/inventory/${id}`)).map(({ type }) => type);
		const before = await types();
		const replaced = await send("PUT", `/pets/${id}`, { name, categoryId });
		expect(await replaced.json()).toMatchObject({ id, status: "available" });
		expect(await types()).toEqual([...before, "inventory.updated"]);
	});
});

describe("a create", () => {
	it("ties its event and its key's record to the insert, even when an expired record of its key was forgotten first", async () => {
		const key = uniqueName("expired-key").replace(" ", "-");
		// An expired record of the key, as the root token's requests scope it: the create forgets it first.
		await env.DB.prepare(
			"INSERT INTO idempotency_keys (key, request_hash, body, etag, created_at) VALUES (?, 'h', '{}', '\"1\"', ?)",
		)
			.bind(`root:${key}`, testNow - 48 * 3600_000)
			.run();
		const { name } = await createCategory();
		const refused = await send("POST", "/categories", { name }, { "idempotency-key": key });
		await expectError(refused, 409, "category_exists");
		const record = await env.DB.prepare("SELECT key FROM idempotency_keys WHERE key = ?")
			.bind(`root:${key}`)
			.first();
		expect(record).toBeNull();
		const retried = await send(
			"POST",
			"/categories",
			{ name: uniqueName("Category") },
			{ "idempotency-key": key },
		);
		expect(retried.status).toBe(201);
		expect(retried.headers.get("idempotency-replayed")).toBeNull();
	});
});
