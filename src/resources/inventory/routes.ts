import { createRoute, z } from "@hono/zod-openapi";
import { linkHeader, pageQuery } from "../../http/pagination";
import { errorResponses, jsonBody, jsonContent } from "../../http/responses";
import { idParam } from "../../models/id";
import {
	Inventory,
	InventoryItem,
	InventoryUpdate,
} from "../../models/inventory";
import { statusQuery } from "../../models/pet-status";

const tags = ["Inventory"];
const params = z.object({ petId: idParam("petId") });

export const listInventory = createRoute({
	method: "get",
	path: "/store/inventory",
	operationId: "listInventory",
	tags,
	summary: "List stock",
	description:
		"Every pet's stock in pet id order, with the pet's current status.",
	"x-stability": "beta",
	request: { query: z.object({ ...pageQuery, status: statusQuery }) },
	responses: {
		200: {
			...jsonContent(Inventory, "A page of inventory items."),
			headers: linkHeader,
		},
		...errorResponses("validation_error", "internal_error"),
	},
});

export const getInventoryItem = createRoute({
	method: "get",
	path: "/store/inventory/{petId}",
	operationId: "getInventoryItem",
	tags,
	summary: "Find a pet's stock",
	description: "One pet's stock, with the pet's current status.",
	"x-stability": "beta",
	request: { params },
	responses: {
		200: jsonContent(InventoryItem, "The inventory item."),
		...errorResponses("validation_error", "not_found", "internal_error"),
	},
});

export const setInventory = createRoute({
	method: "put",
	path: "/store/inventory/{petId}",
	operationId: "setInventory",
	tags,
	summary: "Set a pet's stock",
	description: "Replaces the quantity in stock.",
	"x-stability": "experimental",
	request: { params, body: jsonBody(InventoryUpdate, "The new stock.") },
	responses: {
		200: jsonContent(InventoryItem, "The inventory item."),
		...errorResponses(
			"validation_error",
			"malformed_json",
			"unsupported_media_type",
			"not_found",
			"internal_error",
		),
	},
});
