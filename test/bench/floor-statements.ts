/**
 * The D1 statements the API sends for the benchmark's three requests, in its order, with the values it binds.
 * They are the API's own, captured (runtime.bench.ts checks them before it times anything and, when the API
 * has changed them, stops and prints the API's new ones): to update the floor, replace these with those.
 */
import { nameKey } from "../../src/models/name-key";

/** What one request asks for, and when it was made (ISO 8601). */
type Input<T> = T & { now: string };

/** A statement of the floor: the API's SQL and the values the API binds to it for a request. */
type Statement<T> = { sql: string; params: (input: Input<T>) => unknown[] };

/** A batch's statements by name, in the order they run: the floor reads their results by name. */
export type Steps<T> = Record<string, Statement<T>>;

/** GET /pets/{petId}: one statement, outside any batch. */
export const readPet: Statement<{ petId: number }> = {
	sql: `select json_object('id', "pets"."id", 'name', "pets"."name", 'categoryId', "pets"."category_id", 'status', "pets"."status") as "answer", '"' || "pets"."version" || '"' as "etag" from "pets" where "pets"."id" = ?`,
	params: ({ petId }) => [petId],
};

/** POST /pets: the pet, its inventory item and its event, in one batch, and the pet as created. */
export const createPet = {
	pet: {
		sql: `insert into "pets" ("id", "name", "name_key", "category_id", "status", "version") select ? as "id", ? as "name", ? as "name_key", ? as "category_id", ? as "status", ? as "version" from (SELECT 1) where (1 and EXISTS (SELECT 1 FROM "categories" WHERE "categories"."id" = ?)) on conflict do nothing`,
		params: ({ name, categoryId, status = "available" }) => [
			null,
			name,
			nameKey(name),
			categoryId,
			status,
			1,
			categoryId,
		],
	},
	inventoryItem: {
		sql: `insert into "inventory" ("pet_id", "quantity", "version") select (SELECT max("pets"."id") FROM "pets") as "pet_id", ? as "quantity", ? as "version" from (SELECT 1) where changes() = 1 on conflict do nothing`,
		params: () => [0, 1],
	},
	event: {
		sql: `insert into "events" ("id", "type", "subject", "created_at", "data", "fanned_out_at") select ? as "id", ? as "type", ? || "pets"."id" as "subject", ? as "created_at", json_object('id', "pets"."id", 'name', "pets"."name", 'categoryId', "pets"."category_id", 'status', "pets"."status") as "data", ? as "fanned_out_at" from "pets" where ("pets"."id" = (SELECT max("pets"."id") FROM "pets") and changes() = 1)`,
		params: ({ now }) => [null, "pet.created", "/pets/", now, null],
	},
	created: {
		sql: `select json_object('id', "pets"."id", 'name', "pets"."name", 'categoryId', "pets"."category_id", 'status', "pets"."status") as "answer", '"' || "pets"."version" || '"' as "etag" from "pets" where "pets"."id" = (SELECT max("pets"."id") FROM "pets")`,
		params: () => [],
	},
} satisfies Steps<{ name: string; categoryId: number; status?: string }>;

/** POST /store/orders: the probe that says why nothing happened, the stock taken, the order, its events, and the order as placed. */
export const placeOrder = {
	probe: {
		sql: `select EXISTS (SELECT 1 FROM "pets" WHERE "pets"."id" = ?) as "pet", EXISTS (SELECT 1 FROM "pets" WHERE ("pets"."id" = ? and "pets"."status" = ?)) as "petAvailable" from (SELECT 1)`,
		params: ({ petId }) => [petId, petId, "available"],
	},
	stock: {
		sql: `update "inventory" set "quantity" = "inventory"."quantity" - ?, "version" = "inventory"."version" + 1 where ("inventory"."pet_id" = ? and "inventory"."quantity" >= ? and EXISTS (SELECT 1 FROM "pets" WHERE ("pets"."id" = ? and "pets"."status" = ?)) and 1)`,
		params: ({ petId, quantity }) => [quantity, petId, quantity, petId, "available"],
	},
	order: {
		sql: `insert into "orders" ("id", "pet_id", "quantity", "ship_date", "complete", "version") select ? as "id", ? as "pet_id", ? as "quantity", ? as "ship_date", ? as "complete", ? as "version" from (SELECT 1) where changes() = 1 on conflict do nothing`,
		params: ({ petId, quantity, shipDate, now }) => [null, petId, quantity, shipDate ?? now, 0, 1],
	},
	event: {
		sql: `insert into "events" ("id", "type", "subject", "created_at", "data", "fanned_out_at") select ? as "id", ? as "type", ? || "orders"."id" as "subject", ? as "created_at", json_object('id', "orders"."id", 'petId', "orders"."pet_id", 'quantity', "orders"."quantity", 'shipDate', "orders"."ship_date", 'complete', json(CASE WHEN "orders"."complete" IS NULL THEN NULL WHEN "orders"."complete" THEN 'true' ELSE 'false' END)) as "data", ? as "fanned_out_at" from "orders" where ("orders"."id" = (SELECT max("orders"."id") FROM "orders") and changes() = 1)`,
		params: ({ now }) => [null, "order.placed", "/store/orders/", now, null],
	},
	inventoryEvent: {
		sql: `insert into "events" ("id", "type", "subject", "created_at", "data", "fanned_out_at") select ? as "id", ? as "type", ? || "inventory"."pet_id" as "subject", ? as "created_at", json_object('petId', "inventory"."pet_id", 'quantity', "inventory"."quantity", 'status', "pets"."status") as "data", ? as "fanned_out_at" from "inventory" inner join "pets" on "pets"."id" = "inventory"."pet_id" where ("inventory"."pet_id" = ? and changes() = 1)`,
		params: ({ petId, now }) => [null, "inventory.updated", "/store/inventory/", now, null, petId],
	},
	placed: {
		sql: `select json_object('id', "orders"."id", 'petId', "orders"."pet_id", 'quantity', "orders"."quantity", 'shipDate', "orders"."ship_date", 'complete', json(CASE WHEN "orders"."complete" IS NULL THEN NULL WHEN "orders"."complete" THEN 'true' ELSE 'false' END)) as "answer", '"' || "orders"."version" || '"' as "etag" from "orders" where "orders"."id" = (SELECT max("orders"."id") FROM "orders")`,
		params: () => [],
	},
} satisfies Steps<{ petId: number; quantity: number; shipDate?: string }>;
