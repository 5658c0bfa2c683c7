import { z } from "@hono/zod-openapi";
import { Id } from "./id";
import { limits } from "./limits";

/** The instants whose UTC form is still a four-digit-year RFC 3339 date-time. */
const firstInstant = Date.parse("0001-01-01T00:00:00Z");
const lastInstant = Date.parse("9999-12-31T23:59:59.999Z");

/** An ISO 8601 date-time with an offset that names a real instant; normalised to UTC. */
const ShipDate = z.iso
	.datetime({ offset: true })
	.refine((value) => !Number.isNaN(Date.parse(value)), "is not a real date")
	.refine((value) => {
		const instant = Date.parse(value);
		return instant >= firstInstant && instant <= lastInstant;
	}, "must fall between years 0001 and 9999 in UTC")
	.openapi({
		format: "date-time",
		description: "ISO 8601 date-time; answered in UTC.",
		example: "2026-12-24T09:00:00.000Z",
	});

const quantity = z
	.int()
	.min(1)
	.max(limits.orderQuantity)
	.openapi({ example: 2 });

export const NewOrder = z
	.strictObject({
		petId: Id.openapi({ example: 1 }),
		quantity,
		shipDate: ShipDate.optional().openapi({
			description: "Defaults to the time the order is placed.",
		}),
	})
	.openapi("NewOrder", { example: { petId: 1, quantity: 2 } });

export const OrderPatch = z
	.strictObject({
		shipDate: ShipDate,
		complete: z.boolean().openapi({
			description: "May only go from false to true.",
		}),
	})
	.partial()
	.refine(
		(patch) => Object.keys(patch).length > 0,
		"must change at least one field",
	)
	.openapi("OrderPatch", { minProperties: 1, example: { complete: true } });

export const Order = z
	.object({
		id: Id,
		petId: Id,
		quantity,
		shipDate: z.string().openapi({ format: "date-time" }),
		complete: z.boolean(),
	})
	.partial()
	.openapi("Order", {
		description: "Every field is present in responses.",
		example: {
			id: 1,
			petId: 1,
			quantity: 2,
			shipDate: "2026-12-24T09:00:00.000Z",
			complete: false,
		},
	});

export const Orders = z.array(Order).openapi("Orders");

export type NewOrder = z.infer<typeof NewOrder>;
export type OrderPatch = z.infer<typeof OrderPatch>;
export type Order = Required<z.infer<typeof Order>>;
