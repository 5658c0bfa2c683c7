import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { EventType } from "../models/event-types";
import { limits } from "../models/limits";
import { petStatuses } from "../models/pet-status";
import type { Scope } from "../models/scopes";

/** Bumped by every write of the row: the row's strong ETag, comparable inside a conditional UPDATE. */
const version = () => integer("version").notNull().default(1);

// A CHECK constraint's values are literals: DDL takes no parameters.
const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));
const bound = (value: number) => sql.raw(String(value));

export const categories = sqliteTable(
	"categories",
	{
		id: integer("id").primaryKey({ autoIncrement: true }),
		name: text("name").notNull(),
		/** The name folded for comparison ({@link nameKey}): what makes names unique case-insensitively. */
		nameKey: text("name_key").notNull(),
		description: text("description"),
		version: version(),
	},
	(t) => [
		uniqueIndex("categories_name_key_unique").on(t.nameKey),
		check(
			"categories_name_length",
			sql`length(${t.name}) BETWEEN 1 AND ${bound(limits.categoryName)}`,
		),
		check(
			"categories_description_length",
			sql`${t.description} IS NULL OR length(${t.description}) <= ${bound(limits.categoryDescription)}`,
		),
	],
);

// drizzle/0000_initial.sql (at its end) indexes `name_key` in the FTS5 table `pet_names` through triggers on this
// table, which drizzle-kit does not model: a migration that rebuilds `pets` must recreate them and the index.
export const pets = sqliteTable(
	"pets",
	{
		id: integer("id").primaryKey({ autoIncrement: true }),
		name: text("name").notNull(),
		/** The name folded for comparison ({@link nameKey}), which the name filter searches. */
		nameKey: text("name_key").notNull(),
		categoryId: integer("category_id")
			.notNull()
			.references(() => categories.id, { onDelete: "restrict" }),
		status: text("status", { enum: petStatuses }).notNull().default("available"),
		version: version(),
	},
	(t) => [
		index("pets_category_id").on(t.categoryId, t.id),
		index("pets_status").on(t.status, t.id),
		// Both filters at once walk one index too: no page reads the rows of the other status.
		index("pets_category_id_status").on(t.categoryId, t.status, t.id),
		check("pets_name_length", sql`length(${t.name}) BETWEEN 1 AND ${bound(limits.petName)}`),
		check("pets_status_valid", sql`${t.status} IN (${inList(petStatuses)})`),
	],
);

export const inventory = sqliteTable(
	"inventory",
	{
		petId: integer("pet_id")
			.primaryKey()
			.references(() => pets.id, { onDelete: "cascade" }),
		quantity: integer("quantity").notNull().default(0),
		version: version(),
	},
	(t) => [
		check("inventory_quantity_range", sql`${t.quantity} BETWEEN 0 AND ${bound(limits.stock)}`),
	],
);

export const orders = sqliteTable(
	"orders",
	{
		id: integer("id").primaryKey({ autoIncrement: true }),
		// No foreign key: a completed order stays as history after its pet is deleted (ids are never reused).
		petId: integer("pet_id").notNull(),
		quantity: integer("quantity").notNull(),
		/** ISO 8601 in UTC, as `Date.prototype.toISOString()` writes it. */
		shipDate: text("ship_date").notNull(),
		complete: integer("complete", { mode: "boolean" }).notNull().default(false),
		version: version(),
	},
	(t) => [
		index("orders_pet_id").on(t.petId, t.id),
		index("orders_complete").on(t.complete, t.id),
		index("orders_pet_id_complete").on(t.petId, t.complete, t.id),
		check("orders_quantity_range", sql`${t.quantity} BETWEEN 1 AND ${bound(limits.orderQuantity)}`),
	],
);

/** Responses of writes made with an `Idempotency-Key`, replayed for 24 hours. */
export const idempotencyKeys = sqliteTable(
	"idempotency_keys",
	{
		key: text("key").primaryKey(),
		/** SHA-256 of the operation and its canonical JSON body. */
		requestHash: text("request_hash").notNull(),
		body: text("body").notNull(),
		etag: text("etag").notNull(),
		/** Unix milliseconds. */
		createdAt: integer("created_at").notNull(),
	},
	(t) => [index("idempotency_keys_created_at").on(t.createdAt)],
);

/** The outbox: one row per change, written in the same batch as the change (src/db/write.ts). */
export const events = sqliteTable(
	"events",
	{
		id: integer("id").primaryKey({ autoIncrement: true }),
		type: text("type").notNull(),
		/** The changed resource's path, e.g. `/pets/1`. */
		subject: text("subject").notNull(),
		/** ISO 8601 in UTC. */
		createdAt: text("created_at").notNull(),
		/** The resource as the API answers it after the change, as JSON (`{ "id": … }` for a deletion). */
		data: text("data").notNull(),
		/** Null until handed to its webhooks' deliveries. */
		fannedOutAt: text("fanned_out_at"),
	},
	(t) => [
		index("events_type").on(t.type, t.id),
		index("events_subject").on(t.subject, t.id),
		index("events_subject_type").on(t.subject, t.type, t.id),
		index("events_created_at").on(t.createdAt),
		index("events_waiting").on(t.fannedOutAt, t.id),
	],
);

/** Endpoints that receive events; their delivery state lives in each one's Durable Object, not here. */
export const webhooks = sqliteTable(
	"webhooks",
	{
		id: integer("id").primaryKey({ autoIncrement: true }),
		url: text("url").notNull(),
		events: text("events", { mode: "json" }).$type<EventType[]>().notNull(),
		/** The `whsec_` signing secret, sealed by src/webhooks/secrets/secret-box.ts: encrypted at rest. */
		secret: text("secret").notNull(),
		/** Sealed secrets that rotations replaced, newest first: each still signs until its `expiresAt` (Unix ms). */
		retiredSecrets: text("retired_secrets", { mode: "json" })
			.$type<{ secret: string; expiresAt: number }[]>()
			.notNull()
			.default(sql`'[]'`),
		createdAt: text("created_at").notNull(),
		disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
		/**
		 * Set when its Durable Object refused a hand-off: the sweep replays the events after this id to it alone, so
		 * one endpoint that fails never holds back another's.
		 */
		handOffAfter: integer("hand_off_after"),
		/** The API key that created it (src/http/auth.ts); null for the root token. Only its owner sees it. */
		owner: integer("owner"),
		version: version(),
	},
	(t) => [index("webhooks_owner").on(t.owner, t.id)],
);

/** API keys, stored as their secret's SHA-256 only; a roll keeps the previous one's until `previousUntil`. */
export const apiKeys = sqliteTable(
	"api_keys",
	{
		id: integer("id").primaryKey({ autoIncrement: true }),
		name: text("name").notNull(),
		scopes: text("scopes", { mode: "json" }).$type<Scope[]>().notNull(),
		start: text("start").notNull(),
		hash: text("hash").notNull(),
		previousHash: text("previous_hash"),
		/** Unix ms: until then the previous secret works too. */
		previousUntil: integer("previous_until"),
		/** ISO 8601 in UTC, as every time the API answers. */
		createdAt: text("created_at").notNull(),
		expiresAt: text("expires_at"),
		lastUsedAt: text("last_used_at"),
		version: version(),
	},
	(t) => [
		uniqueIndex("api_keys_hash").on(t.hash),
		uniqueIndex("api_keys_previous_hash").on(t.previousHash),
	],
);
