// `npm run bench`: the API against a hand-written floor Worker, on loopback only. It prints one table and
// never fails on a number. Knobs: BENCH_SECONDS (per timed round), BENCH_CONCURRENCY, BENCH_REQUESTS.
import { spawnSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unstable_readConfig } from "wrangler";
import { root, startWranglerDev, wrangler } from "../support/wrangler-dev.mjs";

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const rounds = 5;
const token = "bench-token";
const work = await mkdtemp(join(tmpdir(), "petstore-bench-"));

/** The app's own configuration with its write limit lifted, so that the load measures work, not 429s. */
const appConfig = async () => {
	const config = unstable_readConfig({ config: join(root, "wrangler.toml") });
	const file = join(work, "app.wrangler.json");
	await writeFile(
		file,
		JSON.stringify({
			name: config.name,
			main: config.main,
			compatibility_date: config.compatibility_date,
			minify: config.minify,
			d1_databases: config.d1_databases.map((db) => ({
				...db,
				migrations_dir: join(root, db.migrations_dir),
			})),
			ratelimits: config.ratelimits.map((limiter) => ({
				...limiter,
				simple: { ...limiter.simple, limit: 100_000_000 },
			})),
			vars: { API_TOKEN: token, CURSOR_SECRET: "bench-cursor-secret" },
		}),
	);
	return file;
};

const floorConfig = join(root, "test/bench/wrangler.toml");

/** The floor without the platform calls the contract requires (the log line, the rate limiter). */
const bareConfig = async () => {
	const config = unstable_readConfig({ config: floorConfig });
	const file = join(work, "bare.wrangler.json");
	await writeFile(
		file,
		JSON.stringify({
			name: "petstore-bare-floor",
			main: config.main,
			compatibility_date: config.compatibility_date,
			d1_databases: config.d1_databases.map((db) => ({
				...db,
				migrations_dir: join(root, "test/bench", db.migrations_dir),
			})),
			vars: { BARE: "true" },
		}),
	);
	return file;
};

const sides = {
	app: { config: await appConfig(), port: 8791 },
	floor: { config: floorConfig, port: 8792 },
	bare: { config: await bareConfig(), port: 8793 },
};

const bundleKiB = (config) => {
	const output = wrangler([
		"deploy",
		"--dry-run",
		"--minify",
		"--outdir",
		join(work, "dist"),
		"-c",
		config,
	]);
	const sizes = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
	if (!sizes) throw new Error(`no bundle size for ${config}\n${output}`);
	return { raw: Number(sizes[1]), gzip: Number(sizes[2]) };
};

const median = (values) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

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

/** The median start-up of each of `configs`, sampled in turn so that a noisy machine slows them all alike. */
const startupMedians = (configs, samples = 9) => {
	const measured = Object.fromEntries(
		Object.keys(configs).map((name) => [name, []]),
	);
	for (let sample = 0; sample < samples; sample++) {
		for (const [name, config] of Object.entries(configs)) {
			measured[name].push(startupMs(config));
		}
	}
	return Object.fromEntries(
		Object.entries(measured).map(([name, values]) => [name, median(values)]),
	);
};

const runtime = () => {
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

const seed =
	"INSERT INTO categories (id, name, name_key) VALUES (1, 'Bench', 'bench'); INSERT INTO pets (id, name, name_key, category_id, status) VALUES (1, 'Bench', 'bench', 1, 'available'); INSERT INTO inventory (pet_id, quantity) VALUES (1, 1000000);";

const scenarios = {
	"GET /pets/{petId}": () => ({ path: "/pets/1" }),
	"POST /pets": () => ({
		path: "/pets",
		body: { name: "Load", categoryId: 1 },
	}),
	"POST /store/orders": () => ({
		path: "/store/orders",
		body: { petId: 1, quantity: 1 },
	}),
};

/** Closed-loop load for `seconds` with `concurrency` clients: 2xx answers per second, latencies in ms. */
const load = async (base, scenario) => {
	const latencies = [];
	let failures = 0;
	const end = performance.now() + seconds * 1000;
	const client = async () => {
		while (performance.now() < end) {
			const { path, body } = scenario();
			const start = performance.now();
			const response = await fetch(`${base}${path}`, {
				method: body ? "POST" : "GET",
				headers: body
					? {
							authorization: `Bearer ${token}`,
							"content-type": "application/json",
						}
					: {},
				body: body && JSON.stringify(body),
			});
			await response.arrayBuffer();
			latencies.push(performance.now() - start);
			if (response.status >= 300) failures++;
		}
	};
	await Promise.all(Array.from({ length: concurrency }, client));
	latencies.sort((a, b) => a - b);
	return {
		rps: (latencies.length - failures) / seconds,
		p50: latencies[Math.floor(latencies.length * 0.5)],
		p99: latencies[Math.floor(latencies.length * 0.99)],
		failures,
	};
};

console.log(
	"Measuring bundles, start-up, in-runtime time and wrangler dev load …",
);
// Start-up and bundle also for the reference the issue names: an app of the chanfana template's shape.
const chanfanaConfig = join(root, "test/bench/chanfana/wrangler.toml");
const bundle = {
	app: bundleKiB(sides.app.config),
	floor: bundleKiB(floorConfig),
	chanfana: bundleKiB(chanfanaConfig),
};
const startup = startupMedians({
	app: sides.app.config,
	floor: floorConfig,
	chanfana: chanfanaConfig,
});
const inRuntime = runtime();

const servers = [];
const loaded = {};
try {
	for (const side of Object.values(sides)) {
		servers.push(await startWranglerDev({ ...side, seed, probe: "/pets/1" }));
	}
	for (const [scenario, request] of Object.entries(scenarios)) {
		const samples = Object.fromEntries(
			Object.keys(sides).map((name) => [name, []]),
		);
		// Sides take turns, in reverse order every other round, so that none always runs first.
		const turns = Object.keys(sides).map((name, index) => [
			name,
			servers[index],
		]);
		for (let round = 0; round < rounds; round++) {
			for (const [name, server] of round % 2 ? turns.toReversed() : turns) {
				samples[name].push(await load(server.base, request));
			}
		}
		// A round's sides ran back to back: the ratio is taken per round, then the median across rounds.
		const ratioTo = (name) =>
			median(
				samples.app.map((app, round) => app.rps / samples[name][round].rps),
			);
		loaded[scenario] = {
			...Object.fromEntries(
				Object.entries(samples).map(([name, results]) => [
					name,
					{
						rps: median(results.map((r) => r.rps)),
						p50: median(results.map((r) => r.p50)),
						p99: median(results.map((r) => r.p99)),
						failures: results.reduce((sum, r) => sum + r.failures, 0),
					},
				]),
			),
			ratio: { floor: ratioTo("floor"), bare: ratioTo("bare") },
		};
	}
} finally {
	for (const server of servers) server.stop();
}

/** Prints `rows` as a Markdown table (ready for the README), one column per name in `columns`. */
const printMarkdownTable = (rows, columns) => {
	const lines = [
		["", ...columns],
		...Object.entries(rows).map(([name, row]) => [
			name,
			...columns.map((column) => String(row[column] ?? "")),
		]),
	];
	const widths = lines[0].map((_, i) =>
		Math.max(3, ...lines.map((line) => line[i].length)),
	);
	const print = (cells) =>
		console.log(
			`| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(" | ")} |`,
		);
	print(lines[0]);
	print(widths.map((width) => "-".repeat(width)));
	for (const line of lines.slice(1)) print(line);
};

// One table: a row per measurement, a column per Worker; "vs" columns are the app's speed over the other's.
const f = (value, digits = 1) => value.toFixed(digits);
const latency = ({ p50, p99 }) => `${f(p50)} / ${f(p99)}`;
const throughput = ({ rps, failures }) =>
	failures ? `${f(rps, 0)} (${failures} non-2xx)` : f(rps, 0);
const table = {};
for (const scenario of Object.keys(scenarios)) {
	const { app, floor, bare, ratio } = loaded[scenario];
	const cpu = inRuntime.find((r) => r.scenario === scenario);
	table[`${scenario}: req/s`] = {
		app: throughput(app),
		floor: throughput(floor),
		bare: throughput(bare),
		"vs floor": f(ratio.floor, 2),
		"vs bare": f(ratio.bare, 2),
	};
	table[`${scenario}: p50 / p99 ms`] = {
		app: latency(app),
		floor: latency(floor),
		bare: latency(bare),
	};
	table[`${scenario}: in-runtime ms/req`] = {
		app: f(cpu.appMs, 2),
		floor: f(cpu.floorMs, 2),
		"vs floor": f(cpu.floorMs / cpu.appMs, 2),
	};
	table[`${scenario}: D1 calls/req`] = {
		app: cpu.appD1Calls,
		floor: cpu.floorD1Calls,
	};
}
const perWorker = (measure) =>
	Object.fromEntries(Object.keys(bundle).map((name) => [name, measure(name)]));
table["start-up ms (active)"] = perWorker((name) => startup[name]);
table["bundle KiB raw (gzip)"] = perWorker(
	(name) => `${bundle[name].raw} (${bundle[name].gzip})`,
);
printMarkdownTable(table, [
	"app",
	"floor",
	"bare",
	"chanfana",
	"vs floor",
	"vs bare",
]);
console.log(
	`wrangler dev load: ${concurrency} clients, ${rounds} alternating rounds of ${seconds} s per side, 2xx answers only. In-runtime: wall time of ${process.env.BENCH_REQUESTS ?? 200} requests × 5 alternating rounds, local D1 included (workerd's clock moves only at I/O, so it cannot time CPU alone).`,
);
