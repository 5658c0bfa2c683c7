import { z } from "@hono/zod-openapi";
import { inventoryItem } from "../../db/resources";
import { linkHeader, pageQuery } from "../../http/pagination";
import { jsonBody, jsonContent } from "../../http/responses";
import { apiRoute, type Tag } from "../../http/route";
import { idParam } from "../../models/id";
import { Inventory, InventoryItem, InventoryUpdate } from "../../models/inventory";
import { statusQuery } from "../../models/pet-status";

const tag: Tag = {
	name: "Inventory",
	title: "Stock",
	description: "Units in stock for each pet.",
	icon: "boxes-stacked",
	parent: "Store",
};
const params = z.object({ petId: idParam("petId") });
const item = { path: inventoryItem.itemPath, conditional: true, tag } as const;

export const listInventory = apiRoute({
	method: "get",
	path: inventoryItem.path,
	operationId: "listInventory",
	tag,
	summary: "List stock",
	description: "Every pet's stock in pet id order, with the pet's current status.",
	lifecycle: { stability: "beta" },
	request: { query: z.object({ ...pageQuery, status: statusQuery }) },
	responses: {
		200: { ...jsonContent(Inventory, "A page of inventory items."), headers: linkHeader },
	},
});

export const getInventoryItem = apiRoute({
	...item,
	method: "get",
	operationId: "getInventoryItem",
	summary: "Find a pet's stock",
	description: "One pet's stock, with the pet's current status.",
	lifecycle: { stability: "beta" },
	request: { params },
	errors: ["not_found"],
	responses: { 200: jsonContent(InventoryItem, "The inventory item.") },
});

export const setInventory = apiRoute({
	...item,
	method: "put",
	scope: "inventory:write",
	operationId: "setInventory",
	summary: "Set a pet's stock",
	description: "Replaces the quantity in stock.",
	lifecycle: { stability: "experimental" },
	request: { params, body: jsonBody(InventoryUpdate, "The new stock.") },
	errors: ["not_found"],
	responses: { 200: jsonContent(InventoryItem, "The inventory item.") },
});
