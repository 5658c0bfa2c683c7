/** A name folded so that "D\u200bog", "Ｄｏｇ" and "Dog", or "ß", "ẞ" and "SS", compare equal; stored, as SQLite folds ASCII only. */
export const nameKey = (name: string) =>
	name
		.replace(/[\p{Default_Ignorable_Code_Point}\u2800]/gu, "")
		.normalize("NFKC")
		.toLowerCase()
		.toUpperCase()
		.toLowerCase();
