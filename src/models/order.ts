import { z } from "@hono/zod-openapi";
import { Id } from "./id";
import { limits } from "./limits";

/** RFC 3339 §5.6 `date-time`: `T` and `Z` in either case, optional fractional seconds, `Z` or an offset. */
const dateTime =
	/^(\d{4})-(\d{2})-(\d{2})[Tt]([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.(\d+))?(?:[Zz]|([+-])([01]\d|2[0-3]):([0-5]\d))$/;

/** The instants whose UTC form keeps a four-digit year. */
const firstInstant = Date.parse("0001-01-01T00:00:00.000Z");
const lastInstant = Date.parse("9999-12-31T23:59:59.999Z");

/** The instant an RFC 3339 date-time names, in Unix ms; NaN when none (February 30th, 24:00, a leap second). */
const instantOf = (text: string) => {
	const match = dateTime.exec(text);
	if (!match) return Number.NaN;
	const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
	const [fraction = "", sign = "+", offsetHours = "0", offsetMinutes = "0"] = match.slice(7);
	const date = new Date(0);
	date.setUTCFullYear(year, month - 1, day);
	date.setUTCHours(hour, minute, second, Number(fraction.padEnd(3, "0").slice(0, 3)));
	const real =
		date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
	const offset = (sign === "-" ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
	return real ? date.getTime() - offset * 60_000 : Number.NaN;
};

/** A date-time as RFC 3339 allows it, answered in UTC (`Date.prototype.toISOString`). */
const ShipDate = z
	.string()
	.transform((text, ctx) => {
		const instant = instantOf(text);
		if (instant >= firstInstant && instant <= lastInstant) return new Date(instant).toISOString();
		ctx.addIssue({
			code: "custom",
			message: Number.isNaN(instant)
				? "is not an RFC 3339 date-time"
				: "must fall between years 0001 and 9999 in UTC",
		});
		return z.NEVER;
	})
	.openapi({
		type: "string",
		format: "date-time",
		description:
			"An RFC 3339 date-time (`T` and `Z` in either case, any offset, fractional seconds) whose year stays within 0001–9999 in UTC; answered in UTC, to the millisecond.",
		example: "2026-12-24T09:00:00.000Z",
	});

const quantity = z.int().min(1).max(limits.orderQuantity).openapi({ example: 2 });

export const NewOrder = z
	.strictObject({
		petId: Id.openapi({ example: 1 }),
		quantity,
		shipDate: ShipDate.optional().openapi({
			description: "Defaults to the time the order is placed.",
		}),
	})
	.openapi("NewOrder", { example: { petId: 1, quantity: 2 } });
export type NewOrder = z.infer<typeof NewOrder>;

export const OrderPatch = z
	.strictObject({
		shipDate: ShipDate,
		complete: z.boolean().openapi({ description: "May only go from false to true." }),
	})
	.partial()
	.refine((patch) => Object.keys(patch).length > 0, "must change at least one field")
	.openapi("OrderPatch", { minProperties: 1, example: { complete: true } });
export type OrderPatch = z.infer<typeof OrderPatch>;

const fields = {
	id: Id,
	petId: Id,
	quantity,
	shipDate: z.string().openapi({ format: "date-time" }),
	complete: z.boolean(),
};

const example = {
	id: 1,
	petId: 1,
	quantity: 2,
	shipDate: "2026-12-24T09:00:00.000Z",
	complete: false,
};

/** The contract's seed model, exactly: no field is required. */
export const Order = z
	.object(fields)
	.partial()
	.openapi("Order", { description: "Every field is present in responses.", example });
export type Order = Required<z.infer<typeof Order>>;

/**
 * An `Order` as every response carries it: the seed model, and beside it (`allOf`) the same fields all required,
 * so every client generator sees them present (hey-api drops a `required` beside an `allOf`, or without its
 * properties). Not optional, so an event's `data` is required too.
 */
export const OrderResponse = z.intersection(Order, z.object(fields)).openapi({ example });

export const Orders = z.array(OrderResponse).openapi("Orders");
