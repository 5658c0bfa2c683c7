import { z } from "@hono/zod-openapi";
import { eventTypes } from "../events/types";

/** The event types as a named schema; its own module, so that `Webhook` and `Event` can each name the other. */
export const EventType = z
	.enum(eventTypes)
	.openapi("EventType", { description: "What changed." });
