/**
 * A name folded so that "D\u200bog", "Ｄｏｇ" and "Dog", or "ß", "ẞ" and "SS", compare equal; stored beside the
 * name, since SQLite's lower() folds ASCII only, and it normalises nothing.
 */
export const nameKey = (name: string) =>
	name
		.replace(/[\p{Default_Ignorable_Code_Point}\u2800]/gu, "")
		.normalize("NFKC")
		.toLowerCase()
		.toUpperCase()
		.toLowerCase();
