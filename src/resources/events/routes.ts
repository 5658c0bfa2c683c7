import { z } from "@hono/zod-openapi";
import { linkHeader, pageQuery } from "../../http/pagination";
import { jsonContent } from "../../http/responses";
import { apiRoute } from "../../http/route";
import { Events } from "../../models/event";
import { EventType } from "../../models/event-types";
import { durations, inWords, limits } from "../../models/limits";
import { repeatable } from "../../models/repeatable";

export const listEvents = apiRoute({
	method: "get",
	path: "/events",
	operationId: "listEvents",
	tag: {
		name: "Events",
		title: "Event feed",
		description: `Every change, in order, for ${inWords(durations.eventRetention)}.`,
		icon: "list",
		parent: "Integrations",
	},
	summary: "List events",
	description: `Every change, oldest first, kept for at least ${inWords(durations.eventRetention)}. Resume from the \`Link\` cursor of the last page read, or from the last event you hold with \`after\`.`,
	request: {
		query: z.object({
			...pageQuery,
			type: repeatable(EventType, "EventType", {
				name: "type",
				description: "Keep events of any of these types; repeat the parameter for several.",
				example: "order.placed",
			}),
			after: z
				.string()
				.regex(/^(evt_)?(0|[1-9][0-9]{0,15})$/, "is not an event id")
				.transform((id) => Number(id.replace("evt_", "")))
				.pipe(z.number().max(limits.maxId))
				.optional()
				.openapi({
					type: "string",
					description:
						"Resume after this event: its `id`, or the `webhook-id` of its delivery (`evt_<id>`); `0` is the start.",
					param: { name: "after", in: "query", example: "evt_1" },
				}),
			subject: z
				.string()
				// Slashes in classes: the pattern needs no escape that a client generator could double.
				.regex(/^[/][a-z/]+[/][1-9][0-9]*$/, "is not a resource path")
				.optional()
				.openapi({
					description: "Keep the events of one resource, named by its path.",
					param: { name: "subject", in: "query", example: "/store/orders/1" },
				}),
		}),
	},
	responses: { 200: { ...jsonContent(Events, "A page of events."), headers: linkHeader } },
});
