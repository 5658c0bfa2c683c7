import fc from "fast-check";
import { name } from "../../src/models/text";
import type { JsonSchema } from "./contract";

export type Components = Record<string, JsonSchema>;

/**
 * Characters a name never holds between its letters, each with the reason the API gives: invisible ones (format
 * characters that are not joiners) and those no two readers show alike (private use in any plane, noncharacters).
 */
export const charactersNoNameHolds = [
	["U+FFF9, an interlinear annotation anchor", "\ufff9", "must not contain invisible characters"],
	[
		"U+FFFA, an interlinear annotation separator",
		"\ufffa",
		"must not contain invisible characters",
	],
	[
		"U+FFFB, an interlinear annotation terminator",
		"\ufffb",
		"must not contain invisible characters",
	],
	[
		"U+13430, an Egyptian hieroglyph format control",
		"\u{13430}",
		"must not contain invisible characters",
	],
	[
		"U+E000, a private-use character",
		"\ue000",
		"must not contain private-use characters or noncharacters",
	],
	[
		"U+F0000, a private-use character of plane 15",
		"\u{f0000}",
		"must not contain private-use characters or noncharacters",
	],
	["U+FDD0, a noncharacter", "\ufdd0", "must not contain private-use characters or noncharacters"],
	["U+FFFF, a noncharacter", "\uffff", "must not contain private-use characters or noncharacters"],
	[
		"U+1FFFE, a noncharacter of plane 1",
		"\u{1fffe}",
		"must not contain private-use characters or noncharacters",
	],
] as const;

/** Names whose invisible characters belong to them: emoji sequences, and joiners within a word. */
export const namesWithTheirOwnInvisibles = [
	[
		"a flag (a tag sequence)",
		"\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f} flag",
	],
	["a technologist (a ZWJ sequence)", "\u{1f469}\u200d\u{1f4bb} dev"],
	["a family (a ZWJ sequence)", "\u{1f468}\u200d\u{1f469}\u200d\u{1f467} Family"],
	["a keycap", "1\ufe0f\u20e3 One"],
	["a red heart (a presentation sequence)", "\u2764\ufe0f"],
	[
		"a Persian word with its zero-width non-joiner",
		"\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
	],
	["a Devanagari conjunct with its zero-width joiner", "\u0915\u094d\u200d\u0937"],
] as const;

/** Any string the document describes, drawn as a name the API takes (the strictest text it has) when not empty. */
const text = (min: number, max: number) => {
	const asName = name(max);
	// The API trims names and counts UTF-16 code units, as zod does.
	return fc
		.oneof(
			{ arbitrary: fc.string({ unit: "grapheme", minLength: min, maxLength: max }), weight: 9 },
			{
				arbitrary: fc.constantFrom(...namesWithTheirOwnInvisibles.map(([, name]) => name)),
				weight: 1,
			},
		)
		.filter(
			(value) =>
				value.length <= max &&
				value.trim().length >= min &&
				(value === "" || asName.safeParse(value).success),
		);
};

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
		...charactersNoNameHolds.map(([, character]) => `Ca${character}t`),
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
