// `npm run bench`: the API next to Cloudflare's chanfana template and a bare floor Worker, each under
// `wrangler dev` on 127.0.0.1 with the same wrangler and compatibility date. It prints one Markdown table and
// never fails on a number. Needs wrk (`apt-get install wrk`). Knobs: BENCH_SECONDS (per timed run),
// BENCH_ROUNDS, BENCH_CONNECTIONS, BENCH_REQUESTS (in-runtime requests per round).
import { spawnSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { unstable_readConfig } from "wrangler";
import { root, startWranglerDev, wrangler } from "../support/wrangler-dev.mjs";
import { webhookRows } from "./webhooks.mjs";

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const token = "bench-token";
const work = await mkdtemp(join(tmpdir(), "petstore-bench-"));

if (spawnSync("wrk", ["--version"]).error) {
	throw new Error("npm run bench needs wrk: apt-get install wrk");
}

const app = unstable_readConfig({ config: join(root, "wrangler.toml") });

/** A side's wrangler config as JSON in `work`, on the API's compatibility date, with `changes` applied. */
const configOf = async (name, path, changes = {}) => {
	const config = unstable_readConfig({ config: join(root, path) });
	const dir = join(root, path, "..");
	const file = join(work, `${name}.wrangler.json`);
	await writeFile(
		file,
		JSON.stringify({
			name: config.name,
			main: resolve(dir, config.main),
			compatibility_date: app.compatibility_date,
			minify: config.minify,
			upload_source_maps: config.upload_source_maps,
			observability: config.observability,
			queues: config.queues,
			vars: config.vars,
			d1_databases: config.d1_databases.map((db) => ({
				...db,
				migrations_dir: resolve(dir, db.migrations_dir),
			})),
			...(config.assets && {
				assets: {
					...config.assets,
					directory: resolve(dir, config.assets.directory),
				},
			}),
			...changes,
		}),
	);
	return file;
};

const json = (body, auth = true) => ({
	method: "POST",
	body,
	headers: {
		"content-type": "application/json",
		...(auth && { authorization: `Bearer ${token}` }),
	},
});

// The template has one resource, tasks, and one kind of write: its create stands in for both of ours.
const task = json(
	{
		name: "Load",
		slug: "load",
		description: "A task",
		completed: false,
		due_date: "2026-12-24T09:00:00.000Z",
	},
	false,
);
const sides = {
	app: {
		config: await configOf("app", "wrangler.toml", {
			// The load measures work, not 429s.
			ratelimits: app.ratelimits.map((limiter) => ({
				...limiter,
				simple: { ...limiter.simple, limit: 100_000_000 },
			})),
			vars: { API_TOKEN: token, CURSOR_SECRET: "bench-cursor-secret" },
		}),
		port: 8791,
		seed: "INSERT INTO categories (id, name, name_key) VALUES (1, 'Bench', 'bench'); INSERT INTO pets (id, name, name_key, category_id, status) VALUES (1, 'Bench', 'bench', 1, 'available'); INSERT INTO inventory (pet_id, quantity) VALUES (1, 1000000);",
		read: { path: "/pets/1" },
		write: { path: "/pets", ...json({ name: "Load", categoryId: 1 }) },
		order: { path: "/store/orders", ...json({ petId: 1, quantity: 1 }) },
	},
	chanfana: {
		config: await configOf("chanfana", "test/bench/chanfana/wrangler.toml"),
		port: 8792,
		seed: "INSERT INTO tasks (id, name, slug, description, completed, due_date) VALUES (1, 'Bench', 'bench', 'A task', 0, '2026-12-24T09:00:00.000Z');",
		read: { path: "/tasks/1" },
		write: { path: "/tasks", ...task },
		order: { path: "/tasks", ...task },
	},
	bare: {
		config: await configOf("bare", "test/bench/wrangler.toml"),
		port: 8793,
		read: { path: "/pets/1" },
		write: { path: "/pets", ...json({ name: "Load", categoryId: 1 }) },
		order: { path: "/store/orders", ...json({ petId: 1, quantity: 1 }) },
	},
};
sides.bare.seed = sides.app.seed;

const median = (values) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `wrk` against `base` for `seconds`: 2xx answers per second and latency percentiles in ms. */
const load = async (base, { path, method = "GET", headers = {}, body }) => {
	const script = join(work, "request.lua");
	await writeFile(
		script,
		[
			`wrk.method = ${JSON.stringify(method)}`,
			...(body ? [`wrk.body = ${JSON.stringify(JSON.stringify(body))}`] : []),
			...Object.entries(headers).map(
				([name, value]) =>
					`wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`,
			),
		].join("\n"),
	);
	const { stdout } = spawnSync(
		"wrk",
		[
			"-t2",
			`-c${connections}`,
			`-d${seconds}s`,
			"--latency",
			"-s",
			script,
			`${base}${path}`,
		],
		{ encoding: "utf8" },
	);
	const number = (pattern) => Number(pattern.exec(stdout)?.[1] ?? 0);
	const ms = (percentile) => {
		const [, value, unit] =
			new RegExp(`${percentile}%\\s+([\\d.]+)(us|ms|s)`).exec(stdout) ?? [];
		return Number(value) * { us: 0.001, ms: 1, s: 1000 }[unit];
	};
	const requests = number(/(\d+) requests in/);
	const failures = number(/Non-2xx or 3xx responses: (\d+)/);
	return {
		rps: (requests - failures) / seconds,
		p50: ms(50),
		p99: ms(99),
		failures,
	};
};

const bundleKiB = (config) => {
	const output = wrangler([
		"deploy",
		"--dry-run",
		"--outdir",
		join(work, "dist"),
		"-c",
		config,
	]);
	const sizes = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
	if (!sizes) throw new Error(`no bundle size for ${config}\n${output}`);
	return { raw: Number(sizes[1]), gzip: Number(sizes[2]) };
};

/** `wrangler check startup`'s active time for `config`, in ms. */
const startupMs = (config) => {
	const output = wrangler([
		"check",
		"startup",
		"-c",
		config,
		"--outfile",
		join(work, "startup.cpuprofile"),
	]);
	const active = /Active: ([\d.]+) ms/.exec(output);
	if (!active) throw new Error(`no start-up time for ${config}\n${output}`);
	return Number(active[1]);
};

/** In-runtime time per request of the app and the bare floor (test/bench/runtime.bench.ts). */
const inRuntime = () => {
	const result = spawnSync(
		"vitest",
		["run", "--config", "test/bench/vitest.config.ts"],
		{
			cwd: root,
			encoding: "utf8",
		},
	);
	const line = result.stdout
		.split("\n")
		.find((text) => text.includes("BENCH "));
	if (!line)
		throw new Error(`runtime bench failed\n${result.stdout}\n${result.stderr}`);
	return JSON.parse(line.slice(line.indexOf("BENCH ") + 6));
};

console.log(
	"Measuring bundles, start-up, in-runtime time and load under wrangler dev …",
);
const names = Object.keys(sides);
const bundle = Object.fromEntries(
	names.map((name) => [name, bundleKiB(sides[name].config)]),
);
// Sampled in turn, so that a noisy machine slows every side alike.
const startups = Object.fromEntries(names.map((name) => [name, []]));
for (let sample = 0; sample < 9; sample++) {
	for (const name of names) startups[name].push(startupMs(sides[name].config));
}
const runtime = inRuntime();

const scenarios = {
	read: "GET /pets/{petId}",
	write: "POST /pets",
	order: "POST /store/orders",
};
const loaded = {};
const servers = [];
try {
	for (const side of Object.values(sides)) {
		servers.push(await startWranglerDev({ ...side, probe: side.read.path }));
	}
	const turns = names.map((name, index) => [name, servers[index]]);
	for (const [name, server] of turns) await load(server.base, sides[name].read); // warm-up
	for (const scenario of Object.keys(scenarios)) {
		const samples = Object.fromEntries(names.map((name) => [name, []]));
		// Sides take turns, in reverse order every other round, so that none always runs first.
		for (let round = 0; round < rounds; round++) {
			for (const [name, server] of round % 2 ? turns.toReversed() : turns) {
				samples[name].push(await load(server.base, sides[name][scenario]));
			}
		}
		// A round's sides ran back to back: each ratio is taken per round, then the median across rounds.
		const ratioTo = (other) =>
			median(
				samples.app.map((mine, round) => mine.rps / samples[other][round].rps),
			);
		loaded[scenario] = {
			...Object.fromEntries(
				names.map((name) => [
					name,
					{
						rps: median(samples[name].map((r) => r.rps)),
						p50: median(samples[name].map((r) => r.p50)),
						p99: median(samples[name].map((r) => r.p99)),
						failures: samples[name].reduce((sum, r) => sum + r.failures, 0),
					},
				]),
			),
			ratios: { chanfana: ratioTo("chanfana"), bare: ratioTo("bare") },
		};
	}
} finally {
	for (const server of servers) server.stop();
}

const f = (value, digits = 1) => value.toFixed(digits);
const rows = [["", "app", "chanfana", "bare", "app/chanfana", "app/bare"]];
for (const [scenario, label] of Object.entries(scenarios)) {
	const result = loaded[scenario];
	const rps = ({ rps, failures }) =>
		failures ? `${f(rps, 0)} (${failures} non-2xx)` : f(rps, 0);
	const latency = ({ p50, p99 }) => `${f(p50)} / ${f(p99)}`;
	rows.push(
		[
			`${label}: req/s`,
			...names.map((n) => rps(result[n])),
			f(result.ratios.chanfana, 2),
			f(result.ratios.bare, 2),
		],
		[`${label}: p50 / p99 ms`, ...names.map((n) => latency(result[n])), "", ""],
	);
	const time = runtime.find((r) => r.scenario === label);
	rows.push([
		`${label}: in-runtime ms/req`,
		f(time.appMs, 2),
		"",
		f(time.floorMs, 2),
		"",
		f(time.appMs / time.floorMs, 2),
	]);
	rows.push([
		`${label}: D1 calls/req`,
		String(time.appD1Calls),
		"",
		String(time.floorD1Calls),
		"",
		"",
	]);
}
rows.push([
	"start-up ms (median of 9)",
	...names.map((n) => f(median(startups[n]))),
	"",
	"",
]);
rows.push([
	"bundle KiB (gzip)",
	...names.map((n) => `${bundle[n].raw} (${bundle[n].gzip})`),
	"",
	"",
]);

const widths = rows[0].map((_, i) =>
	Math.max(3, ...rows.map((row) => row[i].length)),
);
const print = (cells) =>
	console.log(
		`| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(" | ")} |`,
	);
print(rows[0]);
print(widths.map((width) => "-".repeat(width)));
for (const row of rows.slice(1)) print(row);
console.log(
	`Load: wrk -t2 -c${connections}, ${rounds} alternating rounds of ${seconds} s per side, 2xx answers only; chanfana's write and order are both its create. In-runtime: wall time per request inside workerd, local D1 included.`,
);

// Webhooks (test/bench/webhooks.mjs): their own table, measured after the load above.
console.log("\n| webhooks | |\n| --- | --- |");
for (const [label, value] of await webhookRows()) {
	console.log(`| ${label} | ${value} |`);
}
