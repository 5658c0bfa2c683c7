import { z } from "@hono/zod-openapi";
import { type EventType, eventData, eventTypes } from "./event-types";
import { Id } from "./id";

/** `pet.created` → `PetCreatedEvent`. */
const schemaName = (type: EventType) =>
	`${type.replace(/(?:^|\.)(\w)/g, (_, letter: string) => letter.toUpperCase())}Event`;

const eventOf = (type: EventType) =>
	z
		.object({
			id: Id.openapi({ description: "Increases with every change." }),
			type: z.literal(type),
			createdAt: z.string().openapi({ format: "date-time" }),
			data: eventData[type] as z.ZodType,
		})
		.openapi(schemaName(type), { description: `A \`${type}\` event.` });

/** An event, one schema per type, told apart by `type` (a plain `oneOf`: generated clients narrow on it). */
export const Event = z
	.union(eventTypes.map(eventOf))
	.openapi("Event", {
		example: {
			id: 1,
			type: "order.placed",
			createdAt: "2026-12-24T09:00:00.000Z",
			data: { id: 1, petId: 1, quantity: 2, shipDate: "2026-12-24T09:00:00.000Z", complete: false },
		},
	});

export const Events = z.array(Event).openapi("Events");

export type Event = { id: number; type: EventType; createdAt: string; data: unknown };
