import { z } from "@hono/zod-openapi";
import { linkHeader, pageQuery } from "../../http/pagination";
import { repeatable } from "../../http/repeatable";
import { jsonContent } from "../../http/responses";
import { apiRoute } from "../../http/route";
import { Events, EventType } from "../../models/event";

export const listEvents = apiRoute({
	method: "get",
	path: "/events",
	operationId: "listEvents",
	tag: "Events",
	summary: "List events",
	description:
		"Every change, oldest first, kept for at least 30 days. Resume from the `Link` cursor of the last page read.",
	request: {
		query: z.object({
			...pageQuery,
			type: repeatable(EventType, "EventType", {
				name: "type",
				description:
					"Keep events of any of these types; repeat the parameter for several.",
				example: "order.placed",
			}),
			subject: z
				.string()
				.regex(/^\/[a-z/]+\/[1-9][0-9]*$/, "is not a resource path")
				.optional()
				.openapi({
					description: "Keep the events of one resource, named by its path.",
					param: { name: "subject", in: "query", example: "/store/orders/1" },
				}),
		}),
	},
	responses: {
		200: { ...jsonContent(Events, "A page of events."), headers: linkHeader },
	},
});
