/**
 * A name folded for case-insensitive comparison in any script: composed (NFC), then upper- and lower-cased, so
 * that "ß" and "SS", or "Ä" and "ä", compare equal. Stored next to the name, since SQLite's lower() folds
 * ASCII only.
 */
export const nameKey = (name: string) =>
	name.normalize("NFC").toUpperCase().toLowerCase();

/** The columns to write for fields that may change a name: the name and, with it, its key. */
export function withNameKey<T extends { name: string }>(
	fields: T,
): T & { nameKey: string };
export function withNameKey<T extends { name?: string }>(
	fields: T,
): T & { nameKey?: string };
export function withNameKey<T extends { name?: string }>(fields: T) {
	return fields.name === undefined
		? fields
		: { ...fields, nameKey: nameKey(fields.name) };
}
