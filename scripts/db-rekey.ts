// `npm run db:rekey -- --remote` (or `--local`): brings every stored name key to the current folding
// (scripts/rekey-names.ts), and fails naming each category it could not rekey.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rekeyNames } from "./rekey-names";

const d1 = (...args) =>
	execFileSync(
		"wrangler",
		["d1", "execute", "DB", "--yes", "--json", ...process.argv.slice(2), ...args],
		{ encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
	);

const collisions = await rekeyNames(
	async (sql) => JSON.parse(d1("--command", sql))[0].results,
	async (statements) => {
		const file = join(mkdtempSync(join(tmpdir(), "rekey-")), "rekey.sql");
		writeFileSync(file, `${statements.join(";\n")};\n`);
		d1("--file", file);
	},
);
for (const { table, id, name, next, heldBy } of collisions) {
	console.error(
		heldBy
			? `${table} ${id} ${JSON.stringify(name)} folds to ${JSON.stringify(next)}, which ${table} ${heldBy.id} ${JSON.stringify(heldBy.name)} holds: rename one, then run again.`
			: `${table} ${id} ${JSON.stringify(name)} changed while it was rekeyed: run again.`,
	);
}
process.exitCode = collisions.length > 0 ? 1 : 0;
