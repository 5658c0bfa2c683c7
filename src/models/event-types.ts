import { z } from "@hono/zod-openapi";

/** Every event the API records, one per kind of change (API.md §9). */
export const eventTypes = [
	"pet.created",
	"pet.updated",
	"pet.deleted",
	"category.created",
	"category.updated",
	"category.deleted",
	"order.placed",
	"order.updated",
	"order.completed",
	"order.cancelled",
	"inventory.updated",
	"webhook.disabled",
] as const;

export type EventType = (typeof eventTypes)[number];

/** The event types as a named schema, here rather than beside `Event`, so that `Webhook` and `Event` can name each other. */
export const EventType = z.enum(eventTypes).openapi("EventType", { description: "What changed." });
