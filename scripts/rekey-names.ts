// Name keys need JavaScript (SQLite cannot normalise), so a change of the folding in src/models/name-key.ts is a
// data migration no D1 migration file can hold: this one runs where wrangler reaches the database, after a deploy,
// over the name of every resource that src/db/resources.ts declares with a fold.
import { getTableColumns, getTableName } from "drizzle-orm";
import type { Resource } from "../src/db/resource";
import * as resources from "../src/db/resources";
import { nameKey } from "../src/models/name-key";

type Stored = { table: string; id: number; name: string; key: string };

/** A stored key the current folding changes, which the migration could not write, and who holds its new key. */
type Collision = Stored & { next: string; heldBy?: { id: number; name: string } };

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** What a folded resource's rows are to the migration: its table, its key, name and fold columns, and uniqueness. */
const folded = (Object.values(resources) as Resource[]).flatMap(({ table, key, fold }) => {
	if (!fold) return [];
	const columns = getTableColumns(table);
	return [
		{
			table: getTableName(table),
			id: key.name,
			name: columns.name.name,
			key: columns[fold.column].name,
			unique: fold.unique !== undefined,
		},
	];
});

// An ASCII name folds the same under every folding: only the others are read.
const storedKeys = folded
	.map(
		({ table, id, name, key }) =>
			`SELECT '${table}' AS "table", "${id}" AS id, "${name}" AS name, "${key}" AS key FROM "${table}" WHERE "${name}" GLOB '*[^ -~]*'`,
	)
	.join(" UNION ALL ");

/**
 * Rewrites every stored name key that the current folding changes, over a database that `read` and `write` reach
 * (pets' trigram index follows through its triggers). A row renamed meanwhile is left to its new key; one whose
 * new key another row of a resource with unique names holds keeps its old key, and is answered (never merged, and
 * the unique index stands behind the check). Running it again changes nothing, once the collisions are resolved.
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
		planned.map(({ table, id, name, key, next }) => {
			const of = folded.find((resource) => resource.table === table);
			if (!of) throw new Error(`No folded resource stores its names in ${table}.`);
			const free = `NOT EXISTS (SELECT 1 FROM "${table}" WHERE "${of.key}" = ${literal(next)})`;
			return `UPDATE "${table}" SET "${of.key}" = ${literal(next)} WHERE "${of.id}" = ${id} AND "${of.name}" = ${literal(name)} AND "${of.key}" = ${literal(key)}${of.unique ? ` AND ${free}` : ""}`;
		}),
	);
	const left = await stale();
	if (left.length === 0) return [];
	const holders = (await read(
		folded
			.filter(({ unique }) => unique)
			.map(
				({ table, id, name, key }) =>
					`SELECT '${table}' AS "table", "${id}" AS id, "${name}" AS name, "${key}" AS key FROM "${table}" WHERE "${key}" IN (${left.map(({ next }) => literal(next)).join(", ")})`,
			)
			.join(" UNION ALL "),
	)) as Stored[];
	return left.map((row) => {
		const holder = holders.find(({ table, key }) => table === row.table && key === row.next);
		return { ...row, ...(holder && { heldBy: { id: holder.id, name: holder.name } }) };
	});
};
