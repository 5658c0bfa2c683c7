/**
 * A name folded for comparison in any script: without its invisible characters (zero-width spaces and joiners,
 * soft hyphens: default-ignorable code points), composed (NFC), then upper- and lower-cased, so that "D\u200bog"
 * and "Dog", "ß" and "SS", or "Ä" and "ä" compare equal. Stored next to the name, since SQLite's lower() folds
 * ASCII only.
 */
export const nameKey = (name: string) =>
	name
		.replace(/\p{Default_Ignorable_Code_Point}/gu, "")
		.normalize("NFC")
		.toUpperCase()
		.toLowerCase();
