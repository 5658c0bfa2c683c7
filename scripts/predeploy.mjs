// Runs before `npm run deploy` (npm's `predeploy`): what a first deploy needs, checked before anything remote
// changes, each gap named with the command that fills it. wrangler itself checks neither before the migrations
// run: `wrangler d1 migrations apply --remote` takes the placeholder id as it is, and `--dry-run` no secret.
import { spawnSync } from "node:child_process";
import { unstable_readConfig } from "wrangler";

const config = unstable_readConfig({ config: "wrangler.toml" });
const gaps = [];

for (const { binding, database_name, database_id } of config.d1_databases) {
	if (!database_id || /^0{8}-(0{4}-){3}0{12}$/.test(database_id)) {
		gaps.push(
			`wrangler.toml's ${binding} names no database yet: run \`npx wrangler d1 create ${database_name}\` and put the database_id it prints into wrangler.toml.`,
		);
	}
}

if (gaps.length === 0) {
	const listed = spawnSync("wrangler", ["secret", "list", "--format", "json"], {
		encoding: "utf8",
	});
	if (listed.status === 0) {
		const set = new Set(JSON.parse(listed.stdout).map(({ name }) => name));
		for (const name of config.secrets?.required ?? []) {
			if (!set.has(name)) {
				gaps.push(`The secret ${name} is not set: run \`npx wrangler secret put ${name}\`.`);
			}
		}
	} else {
		gaps.push(
			`Could not list the Worker's secrets (log in with \`npx wrangler login\`, or set CLOUDFLARE_API_TOKEN):\n${listed.stderr.trim()}`,
		);
	}
}

for (const gap of gaps) console.error(gap);
if (gaps.length > 0) {
	console.error("Nothing was deployed.");
	process.exit(1);
}
