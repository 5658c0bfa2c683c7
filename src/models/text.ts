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

/**
 * Bidirectional controls (embeddings, overrides, isolates and marks): they can make a name read differently from
 * what it is (U+202E turns "gpj.exe" around).
 */
const bidiControls = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** Characters that show nothing: separators and default-ignorable code points (zero-width spaces and joiners…). */
export const invisible = /[\p{White_Space}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * A name: trimmed, one line of well-formed Unicode without control characters, holding a visible character and no
 * bidirectional control.
 */
export const name = (max: number) =>
	z
		.string()
		.trim()
		// A blank name is answered once, as too small.
		.min(1, { abort: true })
		.max(max)
		.refine(
			(value) => value.isWellFormed() && !/\p{Cc}/u.test(value),
			"must be one line of text without control characters",
		)
		.refine(
			(value) => value.replace(invisible, "") !== "",
			"must contain a visible character",
		)
		.refine(
			(value) => !bidiControls.test(value),
			"must not contain bidirectional control characters",
		);
