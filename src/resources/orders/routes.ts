import { createRoute, z } from "@hono/zod-openapi";
import { idempotencyHeaders, replayedHeader } from "../../http/idempotency";
import { linkHeader, pageQuery } from "../../http/pagination";
import { errorResponses, jsonBody, jsonContent } from "../../http/responses";
import { idParam } from "../../models/id";
import { NewOrder, Order, OrderPatch, Orders } from "../../models/order";

const tags = ["Orders"];
const params = z.object({ orderId: idParam("orderId") });
const bodyErrors = [
	"validation_error",
	"malformed_json",
	"unsupported_media_type",
] as const;

export const listOrders = createRoute({
	method: "get",
	path: "/store/orders",
	operationId: "listOrders",
	tags,
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
					param: { name: "complete", in: "query" },
				}),
		}),
	},
	responses: {
		200: { ...jsonContent(Orders, "A page of orders."), headers: linkHeader },
		...errorResponses("validation_error", "internal_error"),
	},
});

export const placeOrder = createRoute({
	method: "post",
	path: "/store/orders",
	operationId: "placeOrder",
	tags,
	summary: "Place an order",
	description:
		"Takes the quantity from the pet's stock and stores the order in one atomic batch; the pet must be available. Send an `Idempotency-Key` to make retries safe.",
	request: {
		headers: idempotencyHeaders,
		body: jsonBody(NewOrder, "The order to place."),
	},
	responses: {
		201: {
			...jsonContent(Order, "The new order (`complete: false`)."),
			headers: {
				Location: {
					description: "Where the new order lives.",
					schema: { type: "string" },
				},
				...replayedHeader,
			},
		},
		...errorResponses(
			...bodyErrors,
			"pet_not_available",
			"insufficient_stock",
			"unknown_pet",
			"idempotency_key_reused",
			"internal_error",
		),
	},
});

export const getOrderById = createRoute({
	method: "get",
	path: "/store/orders/{orderId}",
	operationId: "getOrderById",
	tags,
	summary: "Find an order by id",
	description: "One order.",
	request: { params },
	responses: {
		200: jsonContent(Order, "The order."),
		...errorResponses("validation_error", "not_found", "internal_error"),
	},
});

export const updateOrder = createRoute({
	method: "patch",
	path: "/store/orders/{orderId}",
	operationId: "updateOrder",
	tags,
	summary: "Update an order",
	description:
		"Changes the ship date or completes the order. A complete order is final: it cannot be reopened or rescheduled.",
	request: { params, body: jsonBody(OrderPatch, "The fields to change.") },
	responses: {
		200: jsonContent(Order, "The updated order."),
		...errorResponses(
			...bodyErrors,
			"not_found",
			"order_complete",
			"internal_error",
		),
	},
});

export const cancelOrder = createRoute({
	method: "delete",
	path: "/store/orders/{orderId}",
	operationId: "cancelOrder",
	tags,
	summary: "Cancel an order",
	description:
		"Deletes an open order and returns its quantity to stock in one atomic batch.",
	request: { params },
	responses: {
		204: { description: "Cancelled." },
		...errorResponses(
			"validation_error",
			"not_found",
			"order_complete",
			"internal_error",
		),
	},
});
