import { eq } from "drizzle-orm";
import { Category } from "../models/category";
import { InventoryItem } from "../models/inventory";
import { ApiKey } from "../models/key";
import { Order } from "../models/order";
import { Pet } from "../models/pet";
import { Webhook } from "../models/webhook";
import { defineResource } from "./resource";
import { apiKeys, categories, inventory, orders, pets, webhooks } from "./schema";

// Each resource of the API, declared once: its model's fields are its table's columns of the same names, which its
// reads, events and replays answer; every write folds a name beside it, which `npm run db:rekey` refolds for each.

export const pet = defineResource({
	name: "Pet",
	path: "/pets",
	param: "petId",
	table: pets,
	model: Pet,
	fold: { column: "nameKey" },
});

export const category = defineResource({
	name: "Category",
	path: "/categories",
	param: "categoryId",
	table: categories,
	model: Category,
	fold: { column: "nameKey", unique: "category_exists" },
});

export const order = defineResource({
	name: "Order",
	path: "/store/orders",
	param: "orderId",
	table: orders,
	model: Order,
});

/** A pet's stock with its pet's status, read through the join (never copied): either row's write changes it. */
export const inventoryItem = defineResource({
	name: "The inventory item of pet",
	path: "/store/inventory",
	param: "petId",
	table: inventory,
	model: InventoryItem,
	join: { table: pets, on: eq(pets.id, inventory.petId), columns: { status: pets.status } },
	key: inventory.petId,
	versions: [inventory.version, pets.version],
});

/** A webhook without its secrets; its delivery state (failures, last status) comes from its Durable Object. */
export const webhook = defineResource({
	name: "Webhook",
	path: "/webhooks",
	param: "webhookId",
	table: webhooks,
	model: Webhook,
	elsewhere: ["failures", "lastStatus", "lastAttemptAt"],
});

/** An API key, without its secret (only its digest is stored, which no answer shows). */
export const apiKey = defineResource({
	name: "Key",
	path: "/keys",
	param: "keyId",
	table: apiKeys,
	model: ApiKey,
});
