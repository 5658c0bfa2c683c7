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
	sql: `select "id", "name", "category_id", "status", '"' || "pets"."version" || '"' from "pets" where "pets"."id" = ?`,
	params: ({ petId }) => [petId],
};

/** POST /pets: the pet, its inventory item and its event, in one batch, and the pet as created. */
export const createPet = {
	pet: {
		sql: `insert into "pets" ("id", "name", "name_key", "category_id", "status", "version") select NULL as "id", ? as "name", ? as "name_key", "id", ? as "status", 1 as "version" from "categories" where ("categories"."id" = ? and 1)`,
		params: ({ name, categoryId, status = "available" }) => [
			name,
			nameKey(name),
			status,
			categoryId,
		],
	},
	inventoryItem: {
		sql: `insert into "inventory" ("pet_id", "quantity", "version") select "id", 0 as "quantity", 1 as "version" from "pets" where ("pets"."id" = (SELECT max("pets"."id") FROM "pets") and changes() = 1)`,
		params: () => [],
	},
	event: {
		sql: `insert into "events" ("id", "type", "subject", "created_at", "data", "fanned_out_at") select NULL as "id", ? as "type", ? || "pets"."id" as "subject", ? as "created_at", json_object(?, "pets"."id", ?, "pets"."name", ?, "pets"."category_id", ?, "pets"."status") as "data", NULL as "fanned_out_at" from "pets" where ("pets"."id" = (SELECT max("pets"."id") FROM "pets") and changes() = 1)`,
		params: ({ now }) => [
			"pet.created",
			"/pets/",
			now,
			"id",
			"name",
			"categoryId",
			"status",
		],
	},
	created: {
		sql: `select "id", "name", "category_id", "status", '"' || "pets"."version" || '"' from "pets" where "pets"."id" = (SELECT max("pets"."id") FROM "pets")`,
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
		params: ({ petId, quantity }) => [
			quantity,
			petId,
			quantity,
			petId,
			"available",
		],
	},
	order: {
		sql: `insert into "orders" ("id", "pet_id", "quantity", "ship_date", "complete", "version") select NULL as "id", ? as "pet_id", ? as "quantity", ? as "ship_date", 0 as "complete", 1 as "version" from (SELECT 1) where changes() = 1`,
		params: ({ petId, quantity, shipDate, now }) => [
			petId,
			quantity,
			shipDate ?? now,
		],
	},
	event: {
		sql: `insert into "events" ("id", "type", "subject", "created_at", "data", "fanned_out_at") select NULL as "id", ? as "type", ? || "orders"."id" as "subject", ? as "created_at", json_object(?, "orders"."id", ?, "orders"."pet_id", ?, "orders"."quantity", ?, "orders"."ship_date", ?, json(CASE WHEN "orders"."complete" THEN 'true' ELSE 'false' END)) as "data", NULL as "fanned_out_at" from "orders" where ("orders"."id" = (SELECT max("orders"."id") FROM "orders") and changes() = 1)`,
		params: ({ now }) => [
			"order.placed",
			"/store/orders/",
			now,
			"id",
			"petId",
			"quantity",
			"shipDate",
			"complete",
		],
	},
	inventoryEvent: {
		sql: `insert into "events" ("id", "type", "subject", "created_at", "data", "fanned_out_at") select NULL as "id", ? as "type", ? || "inventory"."pet_id" as "subject", ? as "created_at", json_object(?, "inventory"."pet_id", ?, "inventory"."quantity", ?, "pets"."status") as "data", NULL as "fanned_out_at" from "inventory" inner join "pets" on "pets"."id" = "inventory"."pet_id" where ("inventory"."pet_id" = ? and changes() = 1)`,
		params: ({ petId, now }) => [
			"inventory.updated",
			"/store/inventory/",
			now,
			"petId",
			"quantity",
			"status",
			petId,
		],
	},
	placed: {
		sql: `select "id", "pet_id", "quantity", "ship_date", "complete", '"' || "orders"."version" || '"' from "orders" where "orders"."id" = (SELECT max("orders"."id") FROM "orders")`,
		params: () => [],
	},
} satisfies Steps<{ petId: number; quantity: number; shipDate?: string }>;
