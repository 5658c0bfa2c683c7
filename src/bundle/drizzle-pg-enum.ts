// Stands in for drizzle-orm's pg-core/columns/enum.js in the bundle (wrangler.toml `[alias]`): sql/sql.js asks of
// every chunk whether it is a Postgres enum, which pulls in pg-core's column classes. This is drizzle's own
// test, verbatim (drizzle-orm 0.45): it stays exact, and on SQLite it is always false.
const isPgEnumSym = Symbol.for("drizzle:isPgEnum");

export function isPgEnum(obj: unknown): boolean {
	return (
		!!obj &&
		typeof obj === "function" &&
		isPgEnumSym in obj &&
		(obj as unknown as Record<symbol, unknown>)[isPgEnumSym] === true
	);
}
