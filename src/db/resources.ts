import { eq } from "drizzle-orm";
import { defineResource } from "./resource";
import { categories, inventory, orders, pets, webhooks } from "./schema";

// Each resource of the API, declared once: what its reads answer, its events carry and its replays repeat.

export const pet = defineResource({
	name: "Pet",
	path: "/pets",
	param: "petId",
	table: pets,
	key: pets.id,
	projection: {
		id: pets.id,
		name: pets.name,
		categoryId: pets.categoryId,
		status: pets.status,
	},
	versions: [pets.version],
});

export const category = defineResource({
	name: "Category",
	path: "/categories",
	param: "categoryId",
	table: categories,
	key: categories.id,
	projection: {
		id: categories.id,
		name: categories.name,
		description: categories.description,
	},
	versions: [categories.version],
});

export const order = defineResource({
	name: "Order",
	path: "/store/orders",
	param: "orderId",
	table: orders,
	key: orders.id,
	projection: {
		id: orders.id,
		petId: orders.petId,
		quantity: orders.quantity,
		shipDate: orders.shipDate,
		complete: orders.complete,
	},
	versions: [orders.version],
});

/** A pet's stock with its pet's status, read through the join (never copied): either row's write changes it. */
export const inventoryItem = defineResource({
	name: "The inventory item of pet",
	path: "/store/inventory",
	param: "petId",
	table: inventory,
	join: { table: pets, on: eq(pets.id, inventory.petId) },
	key: inventory.petId,
	projection: {
		petId: inventory.petId,
		quantity: inventory.quantity,
		status: pets.status,
	},
	versions: [inventory.version, pets.version],
});

/** A webhook without its secrets; its delivery state (failures, last status) comes from its Durable Object. */
export const webhook = defineResource({
	name: "Webhook",
	path: "/webhooks",
	param: "webhookId",
	table: webhooks,
	key: webhooks.id,
	projection: {
		id: webhooks.id,
		url: webhooks.url,
		events: webhooks.events,
		createdAt: webhooks.createdAt,
		disabled: webhooks.disabled,
	},
	versions: [webhooks.version],
});
