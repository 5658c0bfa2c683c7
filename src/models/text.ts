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

/** A name: trimmed, never blank, one line of well-formed Unicode without control characters. */
export const name = (max: number) =>
	z
		.string()
		.trim()
		.min(1)
		.max(max)
		.refine(
			(value) => value.isWellFormed() && !/\p{Cc}/u.test(value),
			"must be one line of text without control characters",
		);
