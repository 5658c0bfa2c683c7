// `npm run db:reset`: starts the local D1 over in place: drops every table (through wrangler, as any statement),
// then applies the migrations and the seed again. A running `npm run dev` shares the database file, so it serves
// the fresh database at once; deleting the file instead would leave it holding the old one, failing. Arguments
// are passed to each wrangler command (`npm run db:reset -- --persist-to <dir>`).
import { execFileSync } from "node:child_process";

const local = ["--local", ...process.argv.slice(2)];
const d1 = (args, stdio = "inherit") =>
	execFileSync("wrangler", ["d1", ...args], { encoding: "utf8", stdio });

// Virtual tables first: dropping one drops its shadow tables, which cannot be dropped on their own.
const [{ results }] = JSON.parse(
	d1(
		[
			"execute",
			"DB",
			...local,
			"--json",
			"--command",
			"SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY sql LIKE 'CREATE VIRTUAL TABLE%' DESC",
		],
		"pipe",
	),
);
if (results.length > 0) {
	const drops = results.map(({ type, name }) => `DROP ${type.toUpperCase()} IF EXISTS "${name}"`);
	d1(
		[
			"execute",
			"DB",
			...local,
			"--command",
			["PRAGMA defer_foreign_keys = true", ...drops].join("; "),
		],
		"pipe",
	);
}
d1(["migrations", "apply", "DB", ...local]);
d1(["execute", "DB", ...local, "--file", "src/db/seed.sql"]);
