import { nameKey } from "../models/name-key";

/** The columns to write for fields that may change a name: the name and, with it, its key. */
export function withNameKey<T extends { name: string }>(fields: T): T & { nameKey: string };
export function withNameKey<T extends { name?: string }>(fields: T): T & { nameKey?: string };
export function withNameKey<T extends { name?: string }>(fields: T) {
	return fields.name === undefined ? fields : { ...fields, nameKey: nameKey(fields.name) };
}
