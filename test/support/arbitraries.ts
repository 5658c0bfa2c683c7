import fc from "fast-check";
import { printingCharacters } from "../../src/models/text";
import type { JsonSchema } from "./contract";

export type Components = Record<string, JsonSchema>;

const text = (min: number, max: number) =>
	fc
		.string({ unit: "grapheme", minLength: min, maxLength: max })
		// The API trims names and counts UTF-16 code units, as zod does; a name prints, on one line.
		.filter(
			(value) =>
				value.length <= max &&
				value.trim().length >= min &&
				(value === "" || (printingCharacters(value) > 0 && !/[\u2028\u2029]/.test(value))),
		);

/**
 * An arbitrary of the values a schema of the document accepts: the same zod schemas that validate requests
 * generate the document, so the fuzz suite follows the contract without a copy of it.
 */
export const arbitraryOf = (schema: JsonSchema, components: Components): fc.Arbitrary<unknown> => {
	if (schema.$ref) {
		const name = schema.$ref.replace("#/components/schemas/", "");
		return arbitraryOf(components[name], components);
	}
	if (schema.allOf) {
		// The document's allOf only adds annotations (a default) to a referenced schema.
		const [base, ...annotations] = schema.allOf;
		const resolved = base.$ref ? components[base.$ref.replace("#/components/schemas/", "")] : base;
		return arbitraryOf(Object.assign({}, resolved, ...annotations), components);
	}
	if (schema.enum) return fc.constantFrom(...schema.enum);
	switch (schema.type) {
		case "boolean":
			return fc.boolean();
		case "integer":
			return fc
				.bigInt({
					min: BigInt(schema.minimum ?? -1_000_000),
					max: BigInt(schema.maximum ?? 1_000_000),
				})
				.map(Number);
		case "string":
			if (schema.format === "date-time" || schema.format === "date") {
				const days = schema.format === "date" ? 10 : undefined;
				return fc
					.date({
						min: new Date("2000-01-01T00:00:00Z"),
						max: new Date("2100-01-01T00:00:00Z"),
						noInvalidDate: true,
					})
					.map((date) => date.toISOString().slice(0, days));
			}
			return text(schema.minLength ?? 0, schema.maxLength ?? 200);
		case "array":
			return fc.array(arbitraryOf(schema.items ?? {}, components), { maxLength: 3 });
		case "object": {
			const properties = Object.fromEntries(
				Object.entries(schema.properties ?? {}).map(([key, property]) => [
					key,
					arbitraryOf(property, components),
				]),
			);
			return fc.record(properties, { requiredKeys: schema.required ?? [] });
		}
		default:
			return fc.anything();
	}
};

/** Values no schema of the API accepts in a typed field, and strings that probe for injection. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
	fc.constantFrom(
		null,
		-1,
		0,
		2 ** 53,
		-(2 ** 53),
		1e308,
		1.5,
		"",
		"   ",
		"'; DROP TABLE pets; --",
		"1 OR 1=1",
		"%_%",
		"\u0000\u0007\u001b[31m",
		"\u202e\ud83d\udc36",
		"x".repeat(20_000),
		[],
		{},
		true,
	),
	fc.string({ unit: "binary", maxLength: 40 }),
	fc.integer(),
	fc.double(),
	fc.anything({ maxDepth: 2 }),
);
