/**
 * A name folded for comparison in any script: without its invisible characters (zero-width spaces and joiners,
 * soft hyphens: default-ignorable code points; the blank Braille cell U+2800), in compatibility form (NFKC), then
 * lower-, upper- and lower-cased, so that "D\u200bog" and "Dog", "Ｄｏｇ" and "Dog", "ß", "ẞ" and "SS", or "Ä" and
 * "ä" compare equal. Stored next to the name, since SQLite's lower() folds ASCII only and nothing in SQLite
 * normalises.
 */
export const nameKey = (name: string) =>
	name
		.replace(/[\p{Default_Ignorable_Code_Point}\u2800]/gu, "")
		.normalize("NFKC")
		.toLowerCase()
		.toUpperCase()
		.toLowerCase();
