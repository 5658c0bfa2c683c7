import { z } from "@hono/zod-openapi";

// Text is stored exactly as accepted: lone surrogates would be replaced on the way to SQLite, and SQLite's
// length() (which the table CHECKs use) stops at a NUL.

/** Free text up to `max` UTF-16 code units: well-formed Unicode without NUL. */
export const text = (max: number) =>
	z
		.string()
		.max(max)
		.refine(
			(value) => value.isWellFormed() && !value.includes("\0"),
			"must be well-formed Unicode without NUL characters",
		);

/** Bidirectional controls: they can make a name read other than it is (U+202E turns "gpj.exe" around). */
const bidiControls = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** A character that prints: a letter, number, punctuation or symbol, but not a blank (U+2800, Hangul fillers). */
const printing = /[[\p{L}\p{N}\p{P}\p{S}]--[\p{Default_Ignorable_Code_Point}\u2800]]/v;

/** How many characters of `value` print: spaces, format characters, blanks and combining marks do not count. */
export const printingCharacters = (value: string) =>
	[...value].filter((character) => printing.test(character)).length;

/** Emoji as Unicode sequences them (ZWJ, tag, keycap and presentation sequences): their invisible parts belong. */
const emoji = /\p{RGI_Emoji}/gv;
/** A joiner between letters or marks, as scripts such as Persian and Devanagari write them. */
const joinerInWord = /(?<=[\p{L}\p{M}])[\u200c\u200d](?=[\p{L}\p{M}])/gv;
/** Default-ignorable code points and format characters (Cf): U+FFF9–U+FFFB and U+13430 are as unseen as U+200B. */
const invisible = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/v;

/** Private-use characters (any plane) and noncharacters: no two readers agree on what, if anything, they show. */
const privateUseOrNoncharacter = /[\p{Co}\p{Noncharacter_Code_Point}]/v;

/** What a name holds, as the document states it. */
export const nameRules =
	"One line, trimmed, with a character that prints (not a space, a format character, a blank such as U+2800 or a lone combining mark); no control, bidirectional, private-use or noncharacter code points, nor invisible or format characters (tag characters, zero-width spaces, soft hyphens, U+FFF9–U+FFFB…) but within an emoji sequence or as a joiner within a word.";

/** A name, as {@link nameRules} states it: one line of well-formed Unicode that prints. */
export const name = (max: number) =>
	z
		.string()
		.trim()
		// A blank name is answered once, as too small.
		.min(1, { abort: true })
		.max(max)
		.refine(
			(value) => value.isWellFormed() && !/[\p{Cc}\p{Zl}\p{Zp}]/u.test(value),
			"must be one line of text without control characters",
		)
		.refine((value) => printingCharacters(value) > 0, {
			message: "must contain a visible character",
			abort: true,
		})
		.refine((value) => !bidiControls.test(value), {
			message: "must not contain bidirectional control characters",
			abort: true,
		})
		.refine(
			(value) => !privateUseOrNoncharacter.test(value),
			"must not contain private-use characters or noncharacters",
		)
		// Text a reader, or an agent, would not see.
		.refine(
			(value) => !invisible.test(value.replace(emoji, "").replace(joinerInWord, "")),
			"must not contain invisible characters",
		);
