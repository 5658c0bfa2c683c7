/**
 * A name folded for comparison in any script: invisible characters (default-ignorable code points, the blank
 * U+2800) dropped, NFKC, then lower-, upper- and lower-cased, so that "D\u200bog", "Ｄｏｇ" and "Dog", or "ß", "ẞ"
 * and "SS", compare equal. Stored beside the name: SQLite's lower() folds ASCII only, and it normalises nothing.
 */
export const nameKey = (name: string) =>
	name
		.replace(/[\p{Default_Ignorable_Code_Point}\u2800]/gu, "")
		.normalize("NFKC")
		.toLowerCase()
		.toUpperCase()
		.toLowerCase();
