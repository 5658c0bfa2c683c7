// `npm run dev`: `.dev.vars` completed, the local database migrated and seeded (quietly: what wrangler prints is
// shown, whole, only when a step fails), then `wrangler dev --test-scheduled` with the arguments given (`npm run dev
// -- --port 9000`), and the type checker watching beside it, in one terminal. Once wrangler says where it serves,
// the banner names that URL and the token. A reload says which files changed; the bindings table wrangler prints
// again after every reload (its dev registry's update), and its warning that it could not fetch `Request.cf`
// (harmless offline), are left out.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, watch } from "node:fs";
import { stripVTControlCharacters } from "node:util";
import "./dev-vars.mjs";

for (const [step, command] of [
	["migrations", "d1 migrations apply DB --local"],
	["seed", "d1 execute DB --local --file src/db/seed.sql"],
]) {
	const run = spawnSync("wrangler", command.split(" "), { encoding: "utf8" });
	if (run.status !== 0) {
		process.stdout.write(run.stdout);
		process.stderr.write(run.stderr);
		console.error(`\nThe local database's ${step} failed: wrangler ${command}`);
		process.exit(run.status ?? 1);
	}
}
console.log("Local D1 migrated and seeded (npm run db:setup).");

const args = process.argv.slice(2);
const envFile = args.includes("--env-file") ? args[args.indexOf("--env-file") + 1] : ".dev.vars";
const color = process.stdout.isTTY ? { FORCE_COLOR: "1" } : {};

const banner = (url) => {
	const token =
		existsSync(envFile) && readFileSync(envFile, "utf8").match(/^API_TOKEN="?([^,"\n]+)/m)?.[1];
	return `
  Petstore API  ${url}
  OpenAPI       ${url}/doc
  Reference     ${url}/reference
  Dev token     ${token || `none: API_TOKEN is not in ${envFile}`}
  Cron's work   ${url}/__scheduled (the sweep; wrangler dev never runs the Cron itself)
`;
};

/** Calls `onLine` with each line `stream` writes. */
const lines = (stream, onLine) => {
	let rest = "";
	stream.setEncoding("utf8").on("data", (chunk) => {
		const split = (rest + chunk).split("\n");
		rest = split.pop();
		for (const line of split) onLine(line);
	});
};

// Files changed since the last reload, as wrangler's own watchers see them.
const changed = new Set();
for (const path of ["src", "wrangler.toml", envFile].filter(existsSync)) {
	watch(path, { recursive: true }, (_, file) => changed.add(path === "src" ? `src/${file}` : path));
}

const wrangler = spawn("wrangler", ["dev", "--test-scheduled", ...args], {
	stdio: ["inherit", "pipe", "pipe"],
	env: { ...process.env, ...color },
});
let served = false;
let skipping = false;
let offline = false;
const fromWrangler = (out) => (line) => {
	const text = stripVTControlCharacters(line);
	if (text.includes("Connection status updated")) {
		skipping = true;
		return;
	}
	if (skipping) {
		skipping = text.trim() !== "";
		return;
	}
	// Offline, the warning and the lookup error under it, which never stop wrangler dev.
	if (text.includes("Unable to fetch the `Request.cf`")) {
		offline = true;
		return;
	}
	if (offline && /^(Error: getaddrinfo|\s+at )/.test(text)) return;
	offline = false;
	if (text.includes("Reloading local server") && changed.size > 0) {
		out.write(`${line.replace("...", `: ${[...changed].join(", ")} changed`)}\n`);
		changed.clear();
		return;
	}
	out.write(`${line}\n`);
	const url = /Ready on (\S+)/.exec(text)?.[1];
	if (url && !served) {
		served = true;
		process.stdout.write(banner(url));
	}
};
lines(wrangler.stdout, fromWrangler(process.stdout));
lines(wrangler.stderr, fromWrangler(process.stderr));

// tsc's errors as they happen; its progress lines only when a check finds errors, or finds none after some.
const tsc = spawn("tsc", ["--noEmit", "--watch", "--preserveWatchOutput", "--pretty", "false"], {
	stdio: ["ignore", "pipe", "inherit"],
});
let errors = -1;
lines(tsc.stdout, (line) => {
	const found = /Found (\d+) errors?/.exec(line);
	if (found) {
		const now = Number(found[1]);
		if (now > 0 || errors !== 0) console.log(`[tsc] ${line.trim()}`);
		errors = now;
	} else if (line.trim() && !/Starting compilation|File change detected/.test(line)) {
		console.log(`[tsc] ${line}`);
	}
});

// Neither outlives this process: stopped, exiting or failing.
const stop = () => {
	tsc.kill();
	wrangler.kill();
};
process.on("SIGINT", stop).on("SIGTERM", stop).on("exit", stop);
wrangler.on("exit", (code) => process.exit(code ?? 0));
