import { z } from "@hono/zod-openapi";
import { Category } from "./category";
import { Id } from "./id";
import { InventoryItem } from "./inventory";
import { OrderResponse } from "./order";
import { Pet } from "./pet";
import { WebhookState } from "./webhook-delivery";

/** What a deletion's event carries: the id of what is gone. */
const DeletedResource = z.object({ id: Id }).openapi("DeletedResource", { example: { id: 1 } });

/** Every event type, and what its `data` carries: the resource as the API answers it after the change. */
export const eventData = {
	"pet.created": Pet,
	"pet.updated": Pet,
	"pet.deleted": DeletedResource,
	"category.created": Category,
	"category.updated": Category,
	"category.deleted": DeletedResource,
	"order.placed": OrderResponse,
	"order.updated": OrderResponse,
	"order.completed": OrderResponse,
	"order.cancelled": DeletedResource,
	"inventory.updated": InventoryItem,
	"webhook.disabled": WebhookState,
} satisfies Record<`${string}.${string}`, z.ZodType>;

export type EventType = keyof typeof eventData;

export const eventTypes = Object.keys(eventData) as [EventType, ...EventType[]];

/** The event types as a named schema, here rather than beside `Event`, so that `Webhook` and `Event` can name each other. */
export const EventType = z.enum(eventTypes).openapi("EventType", { description: "What changed." });
