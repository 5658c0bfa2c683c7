import { z } from "@hono/zod-openapi";
import { order } from "../../db/resources";
import { linkHeader, pageQuery } from "../../http/pagination";
import { createdContent, jsonBody, jsonContent } from "../../http/responses";
import { apiRoute, type Tag } from "../../http/route";
import { idParam } from "../../models/id";
import { NewOrder, OrderPatch, OrderResponse, Orders } from "../../models/order";

const tag: Tag = {
	name: "Orders",
	title: "Store orders",
	description: "Orders placed against the stock.",
	icon: "receipt",
	parent: "Store",
};
const params = z.object({ orderId: idParam("orderId") });
const item = { path: order.itemPath, conditional: true, tag } as const;
const change = { ...item, scope: "orders:write" } as const;

export const listOrders = apiRoute({
	method: "get",
	path: order.path,
	operationId: "listOrders",
	tag,
	summary: "List orders",
	description: "Orders in id order, filtered by pet and completion.",
	"x-hideTryItPanel": true,
	request: {
		query: z.object({
			...pageQuery,
			petId: idParam("petId", "query").optional(),
			complete: z
				.enum(["true", "false"])
				.transform((value) => value === "true")
				.optional()
				.openapi({
					type: "boolean",
					description: "Keep only complete (`true`) or open (`false`) orders.",
					param: { name: "complete", in: "query", example: false },
				}),
		}),
	},
	responses: { 200: { ...jsonContent(Orders, "A page of orders."), headers: linkHeader } },
});

export const placeOrder = apiRoute({
	method: "post",
	path: order.path,
	scope: "orders:write",
	operationId: "placeOrder",
	idempotent: true,
	tag,
	summary: "Place an order",
	description:
		"Takes the quantity from the pet's stock and stores the order in one atomic batch; the pet must be available. Send an `Idempotency-Key` to make retries safe.",
	request: { body: jsonBody(NewOrder, "The order to place.") },
	errors: ["pet_not_available", "insufficient_stock", "unknown_pet"],
	responses: { 201: createdContent(OrderResponse, "The new order (`complete: false`).") },
});

export const getOrderById = apiRoute({
	...item,
	method: "get",
	operationId: "getOrderById",
	summary: "Find an order by id",
	description: "One order.",
	request: { params },
	errors: ["not_found"],
	responses: { 200: jsonContent(OrderResponse, "The order.") },
});

export const updateOrder = apiRoute({
	...change,
	method: "patch",
	operationId: "updateOrder",
	summary: "Update an order",
	description:
		"Changes the ship date or completes the order. A complete order is final: it cannot be reopened or rescheduled.",
	request: {
		params,
		// Rescheduling: an example sent as it stands leaves the order open, so that it can still be cancelled.
		body: jsonBody(OrderPatch, "The fields to change.", { shipDate: "2026-12-27T09:00:00.000Z" }),
	},
	errors: ["not_found", "order_complete"],
	responses: { 200: jsonContent(OrderResponse, "The updated order.") },
});

export const cancelOrder = apiRoute({
	...change,
	method: "delete",
	operationId: "cancelOrder",
	summary: "Cancel an order",
	description: "Deletes an open order and returns its quantity to stock in one atomic batch.",
	request: { params },
	errors: ["not_found", "order_complete"],
	responses: { 204: { description: "Cancelled." } },
});
