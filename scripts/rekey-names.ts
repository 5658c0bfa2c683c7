// Name keys need JavaScript (SQLite cannot normalise), so a change of the folding in src/models/name-key.ts is a
// data migration no D1 migration file can hold: this one runs where wrangler reaches the database, after a deploy.
import { nameKey } from "../src/models/name-key.ts";

type Stored = { table: string; id: number; name: string; key: string };

/** A stored key the current folding changes, which the migration could not write, and who holds its new key. */
type Collision = Stored & { next: string; heldBy?: { id: number; name: string } };

// An ASCII name folds the same under every folding: only the others are read.
const storedKeys = ["categories", "pets"]
	.map(
		(table) =>
			`SELECT '${table}' AS "table", id, name, name_key AS key FROM ${table} WHERE name GLOB '*[^ -~]*'`,
	)
	.join(" UNION ALL ");

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * Rewrites every stored name key that the current folding changes, over a database that `read` and `write` reach
 * (pets' trigram index follows through its triggers). A row renamed meanwhile is left to its new key; a category
 * whose new key another category holds keeps its old key, and is answered (never merged, and the unique index
 * stands behind the check). Running it again changes nothing, once the collisions are resolved by hand.
 */
export const rekeyNames = async (
	read: (sql: string) => Promise<unknown[]>,
	write: (statements: string[]) => Promise<unknown>,
): Promise<Collision[]> => {
	const stale = async () =>
		((await read(storedKeys)) as Stored[])
			.map((row) => ({ ...row, next: nameKey(row.name) }))
			.filter((row) => row.next !== row.key);
	const planned = await stale();
	if (planned.length === 0) return [];
	await write(
		planned.map(
			({ table, id, name, key, next }) =>
				`UPDATE ${table} SET name_key = ${literal(next)} WHERE id = ${id} AND name = ${literal(name)} AND name_key = ${literal(key)}${table === "categories" ? ` AND NOT EXISTS (SELECT 1 FROM categories WHERE name_key = ${literal(next)})` : ""}`,
		),
	);
	const left = await stale();
	if (left.length === 0) return [];
	const holders = (await read(
		`SELECT id, name, name_key AS key FROM categories WHERE name_key IN (${left.map(({ next }) => literal(next)).join(", ")})`,
	)) as Stored[];
	return left.map((row) => {
		const holder = holders.find(({ key }) => key === row.next);
		return { ...row, ...(holder && { heldBy: { id: holder.id, name: holder.name } }) };
	});
};
