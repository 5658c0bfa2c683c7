// Starts `wrangler dev` on loopback over a fresh, migrated local D1, for the Node-side end-to-end test and
// benchmark. Node only: the Workers-runtime tests never need it.
import { spawn, spawnSync } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export const root = resolve(import.meta.dirname, "../..");
/** What a copy of the project holds by default: what `npm run dev` needs. */
const devFiles = [
	"src",
	"drizzle",
	"scripts",
	"package.json",
	"tsconfig.json",
	"wrangler.toml",
	".dev.vars.example",
];

/**
 * A fresh copy of the project's `paths` in test-results/`name`, over this checkout's node_modules: a test that
 * edits files or runs `npm run dev` does so where no other test looks. Its directory.
 */
export const projectCopy = async (name, paths = devFiles) => {
	const copy = join(root, "test-results", name);
	await rm(copy, { recursive: true, force: true });
	await mkdir(copy, { recursive: true });
	for (const path of paths) await cp(join(root, path), join(copy, path), { recursive: true });
	await symlink(join(root, "node_modules"), join(copy, "node_modules"));
	return copy;
};

const quiet = { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" };

/** Runs a wrangler command to completion and returns its output; throws when it fails. */
export const wrangler = (args) => {
	const result = spawnSync("wrangler", args, { cwd: root, encoding: "utf8", env: quiet });
	if (result.status !== 0) {
		throw new Error(`wrangler ${args.join(" ")}\n${result.stderr}`);
	}
	return result.stdout + result.stderr;
};

/**
 * `wrangler dev` for `config` on 127.0.0.1:`port`, its D1 migrated (and seeded with `seed` SQL, if given)
 * in a new directory (`state`), its secrets read from `envFile` when given, its inspector on `inspectorPort`
 * (any free port by default), with `env` added to wrangler's environment. Resolves once the Worker answers
 * `probe`, with wrangler's process id; `stop()` ends it and resolves once the port is free. `onLog`, when
 * given, hears every chunk wrangler prints, warnings included. `testScheduled` serves `/__scheduled`, as `npm run
 * dev` does.
 */
export const startWranglerDev = async ({
	config = "wrangler.toml",
	port,
	seed,
	probe = "/doc",
	envFile,
	inspectorPort = 0,
	testScheduled = false,
	env = {},
	onLog,
}) => {
	const state = await mkdtemp(join(tmpdir(), "petstore-dev-"));
	const local = ["--local", "--persist-to", state, "-c", config];
	wrangler(["d1", "migrations", "apply", "DB", ...local]);
	if (seed) wrangler(["d1", "execute", "DB", ...local, "--command", seed]);
	const child = spawn(
		"wrangler",
		[
			"dev",
			"-c",
			config,
			"--ip",
			"127.0.0.1",
			"--port",
			String(port),
			"--persist-to",
			state,
			"--inspector-port",
			String(inspectorPort),
			"--log-level",
			onLog ? "warn" : "error",
			// As `npm run dev`: /__scheduled runs the Cron Trigger's work, which wrangler dev never fires itself.
			...(testScheduled ? ["--test-scheduled"] : []),
			...(envFile ? ["--env-file", join(root, envFile)] : []),
		],
		{ cwd: root, stdio: onLog ? ["ignore", "pipe", "pipe"] : "ignore", env: { ...quiet, ...env } },
	);
	if (onLog) {
		child.stdout.on("data", (chunk) => onLog(String(chunk)));
		child.stderr.on("data", (chunk) => onLog(String(chunk)));
	}
	const base = `http://127.0.0.1:${port}`;
	for (let attempt = 0; attempt < 150; attempt++) {
		try {
			await fetch(`${base}${probe}`);
			const stop = async () => {
				child.kill();
				// Resolves once the port is free, so that a server started next on it is not taken for this one.
				while (
					await fetch(base).then(
						() => true,
						() => false,
					)
				)
					await sleep(200);
			};
			return { base, state, pid: child.pid, stop };
		} catch {
			await sleep(200);
		}
	}
	child.kill();
	throw new Error(`wrangler dev (${config}) did not start on port ${port}`);
};
