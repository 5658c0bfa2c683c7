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

/** POST /pets: the pet, its inventory item and its event, in one batch, and the outcome: the pet, or why not. */
export const createPet = {
	pet: {
		sql: `insert into "pets" ("id", "name", "name_key", "category_id", "status", "version") select ?, ?, ?, ?, ?, ? where not not EXISTS (SELECT 1 FROM "categories" WHERE "categories"."id" = ?) on conflict do nothing`,
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
		sql: `insert into "inventory" ("pet_id", "quantity", "version") select (SELECT max("pets"."id") FROM "pets"), ?, ? where changes() = 1 on conflict do nothing`,
		params: () => [0, 1],
	},
	event: {
		sql: `insert into "events" ("id", "type", "subject", "created_at", "data", "fanned_out_at") select ?, ?, '/pets/' || "pets"."id", ?, json_object('id', "pets"."id", 'name', "pets"."name", 'categoryId', "pets"."category_id", 'status', "pets"."status"), ? from "pets" where "pets"."id" = (SELECT max("pets"."id") FROM "pets") and changes() = 1`,
		params: ({ now }) => [null, "pet.created", now, null],
	},
	outcome: {
		sql: `select (select json_array(json_object('id', "pets"."id", 'name', "pets"."name", 'categoryId', "pets"."category_id", 'status', "pets"."status"), '"' || "pets"."version" || '"') from "pets" where "pets"."id" = (SELECT max("pets"."id") FROM "pets")) as "answer", json_array(not EXISTS (SELECT 1 FROM "categories" WHERE "categories"."id" = ?)) as "why", null as "stored" from (select 1)`,
		params: ({ categoryId }) => [categoryId],
	},
} satisfies Steps<{ name: string; categoryId: number; status?: string }>;

/** What a placement asks of its pet, as the order's conditions and the outcome's reasons ask it. */
const petChecks = ({ petId, quantity }: { petId: number; quantity: number }) => [
	petId,
	petId,
	"available",
	petId,
	quantity,
];

/** POST /store/orders: the order, the stock it takes, its events, and the outcome: the order, or why not. */
export const placeOrder = {
	order: {
		sql: `insert into "orders" ("id", "pet_id", "quantity", "ship_date", "complete", "version") select ?, ?, ?, ?, ?, ? where (not not EXISTS (SELECT 1 FROM "pets" WHERE "pets"."id" = ?) and not not EXISTS (SELECT 1 FROM "pets" WHERE ("pets"."id" = ? and "pets"."status" = ?)) and not not EXISTS (SELECT 1 FROM "inventory" WHERE ("inventory"."pet_id" = ? and "inventory"."quantity" >= ?))) on conflict do nothing`,
		params: (input) => [
			null,
			input.petId,
			input.quantity,
			input.shipDate ?? input.now,
			0,
			1,
			...petChecks(input),
		],
	},
	stock: {
		sql: `update "inventory" set "quantity" = "inventory"."quantity" - ?, "version" = "inventory"."version" + 1 where ("inventory"."pet_id" = ? and changes() = 1)`,
		params: ({ petId, quantity }) => [quantity, petId],
	},
	event: {
		sql: `insert into "events" ("id", "type", "subject", "created_at", "data", "fanned_out_at") select ?, ?, '/store/orders/' || "orders"."id", ?, json_object('id', "orders"."id", 'petId', "orders"."pet_id", 'quantity', "orders"."quantity", 'shipDate', "orders"."ship_date", 'complete', json(CASE WHEN "orders"."complete" IS NULL THEN NULL WHEN "orders"."complete" THEN 'true' ELSE 'false' END)), ? from "orders" where "orders"."id" = (SELECT max("orders"."id") FROM "orders") and changes() = 1`,
		params: ({ now }) => [null, "order.placed", now, null],
	},
	inventoryEvent: {
		sql: `insert into "events" ("id", "type", "subject", "created_at", "data", "fanned_out_at") select ?, ?, '/store/inventory/' || "inventory"."pet_id", ?, json_object('petId', "inventory"."pet_id", 'quantity', "inventory"."quantity", 'status', "pets"."status"), ? from "inventory" inner join "pets" on "pets"."id" = "inventory"."pet_id" where "inventory"."pet_id" = ? and changes() = 1`,
		params: ({ petId, now }) => [null, "inventory.updated", now, null, petId],
	},
	outcome: {
		sql: `select (select json_array(json_object('id', "orders"."id", 'petId', "orders"."pet_id", 'quantity', "orders"."quantity", 'shipDate', "orders"."ship_date", 'complete', json(CASE WHEN "orders"."complete" IS NULL THEN NULL WHEN "orders"."complete" THEN 'true' ELSE 'false' END)), '"' || "orders"."version" || '"') from "orders" where "orders"."id" = (SELECT max("orders"."id") FROM "orders")) as "answer", json_array(not EXISTS (SELECT 1 FROM "pets" WHERE "pets"."id" = ?), not EXISTS (SELECT 1 FROM "pets" WHERE ("pets"."id" = ? and "pets"."status" = ?)), not EXISTS (SELECT 1 FROM "inventory" WHERE ("inventory"."pet_id" = ? and "inventory"."quantity" >= ?))) as "why", null as "stored" from (select 1)`,
		params: petChecks,
	},
} satisfies Steps<{ petId: number; quantity: number; shipDate?: string }>;
