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

/** POST /pets: the pet, its inventory item and its event, in one batch, then the probe: the pet, or why not. */
export const createPet = {
	pet: {
		sql: `insert into "pets" ("id", "name", "name_key", "category_id", "status", "version") select null as "id", ? as "name", ? as "nameKey", ? as "categoryId", ? as "status", ? as "version" from (select 1) where exists (select 1 from "categories" where "categories"."id" = ?) on conflict do nothing`,
		params: ({ name, categoryId, status = "available" }) => [
			name,
			nameKey(name),
			categoryId,
			status,
			1,
			categoryId,
		],
	},
	inventoryItem: {
		sql: `insert into "inventory" ("pet_id", "quantity", "version") select (select max("id") from "pets") as "petId", ? as "quantity", ? as "version" from (select 1) where changes() > 0 on conflict do nothing`,
		params: () => [0, 1],
	},
	event: {
		sql: `insert into "events" ("id", "type", "subject", "created_at", "data", "fanned_out_at") select null as "id", ? as "type", ? || "id" as "subject", ? as "createdAt", json_object('id', "pets"."id", 'name', "pets"."name", 'categoryId', "pets"."category_id", 'status', "pets"."status") as "data", null as "fannedOutAt" from "pets" where ("pets"."id" = (select max("pets"."id") from "pets") and changes() > 0)`,
		params: ({ now }) => ["pet.created", "/pets/", now],
	},
	probe: {
		sql: `select (select json_object('answer', json_object('id', "pets"."id", 'name', "pets"."name", 'categoryId', "pets"."category_id", 'status', "pets"."status"), 'etag', '"' || "pets"."version" || '"') from "pets" where "pets"."id" = (select max("pets"."id") from "pets")) as "pet", exists (select 1 from "categories" where "categories"."id" = ?) as "inCategory", null as "stored" from (select 1)`,
		params: ({ categoryId }) => [categoryId],
	},
} satisfies Steps<{ name: string; categoryId: number; status?: string }>;

/** What a placement asks of its pet, as the order's conditions and the probe ask it. */
const petChecks = ({ petId, quantity }: { petId: number; quantity: number }) => [
	petId,
	petId,
	"available",
	petId,
	quantity,
];

/** POST /store/orders: the order, the stock it takes, its events, then the probe: the order, or why not. */
export const placeOrder = {
	order: {
		sql: `insert into "orders" ("id", "pet_id", "quantity", "ship_date", "complete", "version") select null as "id", ? as "petId", ? as "quantity", ? as "shipDate", ? as "complete", ? as "version" from (select 1) where (exists (select 1 from "pets" where "pets"."id" = ?) and exists (select 1 from "pets" where ("pets"."id" = ? and "pets"."status" = ?)) and exists (select 1 from "inventory" inner join "pets" on "pets"."id" = "inventory"."pet_id" where ("inventory"."pet_id" = ? and "inventory"."quantity" >= ?))) on conflict do nothing`,
		params: (input) => [
			input.petId,
			input.quantity,
			input.shipDate ?? input.now,
			0,
			1,
			...petChecks(input),
		],
	},
	stock: {
		sql: `update "inventory" set "quantity" = "inventory"."quantity" - ?, "version" = "inventory"."version" + 1 where ("inventory"."pet_id" = ? and changes() > 0)`,
		params: ({ petId, quantity }) => [quantity, petId],
	},
	event: {
		sql: `insert into "events" ("id", "type", "subject", "created_at", "data", "fanned_out_at") select null as "id", ? as "type", ? || "id" as "subject", ? as "createdAt", json_object('id', "orders"."id", 'petId', "orders"."pet_id", 'quantity', "orders"."quantity", 'shipDate', "orders"."ship_date", 'complete', json(CASE WHEN "orders"."complete" IS NULL THEN NULL WHEN "orders"."complete" THEN 'true' ELSE 'false' END)) as "data", null as "fannedOutAt" from "orders" where ("orders"."id" = (select max("orders"."id") from "orders") and changes() > 0)`,
		params: ({ now }) => ["order.placed", "/store/orders/", now],
	},
	inventoryEvent: {
		sql: `insert into "events" ("id", "type", "subject", "created_at", "data", "fanned_out_at") select null as "id", ? as "type", ? || "inventory"."pet_id" as "subject", ? as "createdAt", json_object('petId', "inventory"."pet_id", 'quantity', "inventory"."quantity", 'status', "pets"."status") as "data", null as "fannedOutAt" from "inventory" inner join "pets" on "pets"."id" = "inventory"."pet_id" where ("inventory"."pet_id" = ? and changes() > 0)`,
		params: ({ petId, now }) => ["inventory.updated", "/store/inventory/", now, petId],
	},
	probe: {
		sql: `select (select json_object('answer', json_object('id', "orders"."id", 'petId', "orders"."pet_id", 'quantity', "orders"."quantity", 'shipDate', "orders"."ship_date", 'complete', json(CASE WHEN "orders"."complete" IS NULL THEN NULL WHEN "orders"."complete" THEN 'true' ELSE 'false' END)), 'etag', '"' || "orders"."version" || '"') from "orders" where "orders"."id" = (select max("orders"."id") from "orders")) as "order", exists (select 1 from "pets" where "pets"."id" = ?) as "petExists", exists (select 1 from "pets" where ("pets"."id" = ? and "pets"."status" = ?)) as "forSale", exists (select 1 from "inventory" inner join "pets" on "pets"."id" = "inventory"."pet_id" where ("inventory"."pet_id" = ? and "inventory"."quantity" >= ?)) as "inStock", null as "stored" from (select 1)`,
		params: petChecks,
	},
} satisfies Steps<{ petId: number; quantity: number; shipDate?: string }>;
