// `npm run bench`: the API next to Cloudflare's chanfana template and the floor (floor.ts: the API's platform
// work without the framework), each under `wrangler dev` on 127.0.0.1 with the same wrangler and compatibility
// date; then where the API's CPU time goes, the memory of wrangler dev's processes after a fixed number of
// reads, and webhook delivery (webhooks.mjs). It writes docs/performance.md, the one place its figures are
// kept, and never fails on a number. Needs wrk (`apt-get install wrk`). Knobs:
// BENCH_SECONDS (per timed run), BENCH_ROUNDS, BENCH_CONNECTIONS, BENCH_REQUESTS (in-runtime requests per
// round), BENCH_PROFILE_REQUESTS (per profiled round), BENCH_PROFILE_ROUNDS, BENCH_PROFILE_WARMUP (requests per
// side before a scenario's profiles), BENCH_MEMORY_REQUESTS (per memory step), BENCH_MEMORY_SCENARIO (read,
// write or order: what the memory steps send; read by default). BENCH_ONLY=cpu runs the CPU profiles alone and
// prints them, writing nothing: three of those are the quick check that the app/floor CPU ratios repeat.
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { root, startWranglerDev, wrangler } from "../support/wrangler-dev.mjs";
import { inRuntime } from "./in-runtime.mjs";
import { inspect } from "./inspector.mjs";
import { firstCalls } from "./mcp-clients.mjs";
import { liveHeap, rssByProcess } from "./memory.mjs";
import { profiler } from "./profile.mjs";
import { sendRequests } from "./requests.mjs";
import { loadSides, memorySides, profileSides } from "./sides.mjs";
import { f, markdownTable, median } from "./table.mjs";
import { webhookRows } from "./webhooks.mjs";

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const profiled = Number(process.env.BENCH_PROFILE_REQUESTS ?? 500);
const profileRounds = Number(process.env.BENCH_PROFILE_ROUNDS ?? 9);
const profileWarmup = Number(process.env.BENCH_PROFILE_WARMUP ?? 2000);
const memoryStep = Number(process.env.BENCH_MEMORY_REQUESTS ?? 4000);
const memorySteps = 3;
const memoryScenario = process.env.BENCH_MEMORY_SCENARIO ?? "read";
const work = await mkdtemp(join(tmpdir(), "petstore-bench-"));

if (spawnSync("wrk", ["--version"]).error) {
	throw new Error("npm run bench needs wrk: apt-get install wrk");
}

const scenarios = { read: "GET /pets/{petId}", write: "POST /pets", order: "POST /store/orders" };

/** `wrk` against `base` for `seconds`: 2xx answers per second and latency percentiles in ms. */
const load = async (base, { path, method = "GET", headers = {}, body }) => {
	const script = join(work, "request.lua");
	await writeFile(
		script,
		[
			`wrk.method = ${JSON.stringify(method)}`,
			...(body ? [`wrk.body = ${JSON.stringify(JSON.stringify(body))}`] : []),
			...Object.entries(headers).map(
				([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`,
			),
		].join("\n"),
	);
	const { stdout } = spawnSync(
		"wrk",
		["-t2", `-c${connections}`, `-d${seconds}s`, "--latency", "-s", script, `${base}${path}`],
		{ encoding: "utf8" },
	);
	const number = (pattern) => Number(pattern.exec(stdout)?.[1] ?? 0);
	const ms = (percentile) => {
		const [, value, unit] = new RegExp(`${percentile}%\\s+([\\d.]+)(us|ms|s)`).exec(stdout) ?? [];
		return Number(value) * { us: 0.001, ms: 1, s: 1000 }[unit];
	};
	const requests = number(/(\d+) requests in/);
	const failures = number(/Non-2xx or 3xx responses: (\d+)/);
	return { rps: (requests - failures) / seconds, p50: ms(50), p99: ms(99), failures };
};

const bundleKiB = async (config) => {
	const metafile = join(work, "meta.json");
	const output = wrangler([
		"deploy",
		"--dry-run",
		"--outdir",
		join(work, "dist"),
		"--metafile",
		metafile,
		"-c",
		config,
	]);
	const sizes = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
	if (!sizes) throw new Error(`no bundle size for ${config}\n${output}`);
	// What /mcp brings: the MCP SDK's packages and src/mcp/, as bundled (gzip is of the whole file only).
	const inputs = Object.values(JSON.parse(await readFile(metafile, "utf8")).outputs).flatMap(
		(output) => Object.entries(output.inputs),
	);
	const mcpBytes = inputs
		.filter(([path]) => /node_modules\/@modelcontextprotocol\/|(^|\/)src\/mcp\//.test(path))
		.reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
	return { raw: Number(sizes[1]), gzip: Number(sizes[2]), mcp: mcpBytes / 1024 };
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

/** Starts every side of `sides` under `wrangler dev`, runs `measure(servers)`, and stops them all. */
const withServers = async (sides, measure) => {
	const servers = {};
	try {
		for (const [name, side] of Object.entries(sides)) {
			servers[name] = await startWranglerDev({ ...side, probe: side.read.path });
		}
		return await measure(servers);
	} finally {
		for (const server of Object.values(servers)) await server.stop();
	}
};

/** The sides' names in turn, in reverse order every other round, so that none always runs first. */
const turns = (names, round) => (round % 2 ? names.toReversed() : names);

/** Throughput and latency of each side per scenario, and the app's ratios to the others per round. */
const loadUnderWranglerDev = (sides) =>
	withServers(sides, async (servers) => {
		const names = Object.keys(sides);
		for (const name of names) await load(servers[name].base, sides[name].read); // warm-up
		const loaded = {};
		for (const scenario of Object.keys(scenarios)) {
			const samples = Object.fromEntries(names.map((name) => [name, []]));
			for (let round = 0; round < rounds; round++) {
				for (const name of turns(names, round)) {
					samples[name].push(await load(servers[name].base, sides[name][scenario]));
				}
			}
			// A round's sides ran back to back: each ratio is taken per round, then the median across rounds.
			const ratioTo = (other) =>
				median(samples.app.map((mine, round) => mine.rps / samples[other][round].rps));
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
				ratios: { chanfana: ratioTo("chanfana"), floor: ratioTo("floor") },
			};
		}
		return loaded;
	});

/** `values`' median, and their lowest and highest as fractions of it, less one. */
const spread = (values) => {
	const middle = median(values);
	return {
		median: middle,
		low: Math.min(...values) / middle - 1,
		high: Math.max(...values) / middle - 1,
	};
};

/** A spread's ends as signed percentages of its median, e.g. `−6 % … +9 %`. */
const percents = ({ low, high }) => {
	const signed = (fraction) => `${fraction < 0 ? "−" : "+"}${f(Math.abs(fraction) * 100, 0)} %`;
	return `${signed(low)} … ${signed(high)}`;
};

/**
 * The app's and the floor's CPU time per request in their isolates, per scenario: each side warmed on the
 * scenario first (lazily compiled code compiled, the JIT's top tier reached), then `profileRounds` rounds that
 * alternate which side goes first, each from a collected heap (profile.mjs). Per side, each module's median
 * across rounds and each round's total; the app/floor ratio is taken per round, the two sides back to back,
 * then its median and spread across rounds.
 */
const profileUnderWranglerDev = (sides) =>
	withServers(sides, async (servers) => {
		const names = Object.keys(sides);
		const sessions = Object.fromEntries(
			await Promise.all(
				names.map(async (name) => [name, await inspect(sides[name].inspectorPort)]),
			),
		);
		const profilers = Object.fromEntries(
			await Promise.all(names.map(async (name) => [name, await profiler(sessions[name])])),
		);
		const profiles = {};
		for (const scenario of Object.keys(scenarios)) {
			for (const name of names) {
				await sendRequests(servers[name].base, sides[name][scenario], profileWarmup, 8);
			}
			const rounds = Object.fromEntries(names.map((name) => [name, []]));
			for (let round = 0; round < profileRounds; round++) {
				for (const name of turns(names, round)) {
					const { base } = servers[name];
					const request = sides[name][scenario];
					rounds[name].push(
						await profilers[name].profile(() => sendRequests(base, request, profiled, 8), profiled),
					);
				}
			}
			const totals = Object.fromEntries(
				names.map((name) => [
					name,
					rounds[name].map((ms) => Object.values(ms).reduce((all, one) => all + one, 0)),
				]),
			);
			profiles[scenario] = {
				modules: Object.fromEntries(
					names.map((name) => {
						const modules = new Set(rounds[name].flatMap(Object.keys));
						return [
							name,
							Object.fromEntries(
								[...modules].map((module) => [
									module,
									median(rounds[name].map((ms) => ms[module] ?? 0)),
								]),
							),
						];
					}),
				),
				totals: Object.fromEntries(names.map((name) => [name, spread(totals[name])])),
				ratio: spread(totals.app.map((app, round) => app / totals.floor[round])),
			};
			const { ratio, totals: total } = profiles[scenario];
			console.log(
				`CPU ${scenario}: app/floor ${f(ratio.median, 2)} (${percents(ratio)} across ${profileRounds} rounds); app ${f(total.app.median, 3)} ms/req (${percents(total.app)}), floor ${f(total.floor.median, 3)} (${percents(total.floor)})`,
			);
		}
		for (const session of Object.values(sessions)) session.close();
		return profiles;
	});

/** The CPU ratios' table: per scenario, the app/floor ratio's median across rounds and its spread. */
const ratioTable = (profiles) =>
	markdownTable([
		[`CPU ms/req, ${profileRounds} rounds`, ...Object.keys(scenarios)],
		...[
			["app/floor: median of the rounds' ratios", ({ ratio }) => f(ratio.median, 2)],
			["app/floor: lowest … highest round", ({ ratio }) => percents(ratio)],
			["app: median of the rounds' totals", ({ totals }) => f(totals.app.median, 3)],
			["app: lowest … highest round", ({ totals }) => percents(totals.app)],
			["floor: median of the rounds' totals", ({ totals }) => f(totals.floor.median, 3)],
			["floor: lowest … highest round", ({ totals }) => percents(totals.floor)],
		].map(([label, cell]) => [label, ...Object.keys(scenarios).map((s) => cell(profiles[s]))]),
	]);

/**
 * For each side in turn, on a fresh `wrangler dev`: the RSS of its processes before and after each step of
 * `memoryScenario` requests, and the Worker isolate's live heap before and after them all.
 */
const memoryUnderWranglerDev = async (sides) => {
	const measured = {};
	for (const [name, side] of Object.entries(sides)) {
		measured[name] = await withServers({ [name]: side }, async (servers) => {
			const { base, pid } = servers[name];
			const session = await inspect(side.inspectorPort);
			const request = side[memoryScenario];
			await sendRequests(base, request, 100); // warm-up
			// First, so that the snapshot's own cost is in the baseline, not in the growth.
			const heapBefore = await liveHeap(session);
			const rss = [rssByProcess(pid, side.port)];
			let failures = 0;
			for (let step = 0; step < memorySteps; step++) {
				failures += await sendRequests(base, request, memoryStep);
				rss.push(rssByProcess(pid, side.port));
			}
			const heapAfter = await liveHeap(session);
			session.close();
			return { rss, heapBefore, heapAfter, failures };
		});
	}
	return measured;
};

if (process.env.BENCH_ONLY === "cpu") {
	console.log("Profiling the app's and the floor's CPU under wrangler dev …");
	console.log(`\n${ratioTable(await profileUnderWranglerDev(await profileSides(work)))}`);
	process.exit(0);
}

console.log(
	"Measuring bundles, start-up, in-runtime time, load, CPU profiles and memory under wrangler dev …",
);
const sides = await loadSides(work);
const names = Object.keys(sides);
const bundle = {};
for (const name of names) bundle[name] = await bundleKiB(sides[name].config);
// Sampled in turn, so that a noisy machine slows every side alike.
const startups = Object.fromEntries(names.map((name) => [name, []]));
for (let sample = 0; sample < 9; sample++) {
	for (const name of names) startups[name].push(startupMs(sides[name].config));
}
// In-runtime time per request of the app and the floor.
const runtime = inRuntime("runtime.bench.ts", "BENCH");
// An MCP tool call beside the REST request it stands for, and the first /mcp request of an isolate.
const mcp = inRuntime("mcp.bench.ts", "MCP");
// What an MCP client's first call costs it beyond a later one (the tools listed and their schemas compiled).
const clientCalls = await withServers({ app: sides.app }, (servers) =>
	firstCalls(servers.app.base),
);
const loaded = await loadUnderWranglerDev(sides);
const profiles = await profileUnderWranglerDev(await profileSides(work));
const memory = await memoryUnderWranglerDev(await memorySides(work, memoryScenario));

const rows = [["", "app", "chanfana", "floor", "app/chanfana", "app/floor"]];
for (const [scenario, label] of Object.entries(scenarios)) {
	const result = loaded[scenario];
	const rps = ({ rps, failures }) => (failures ? `${f(rps, 0)} (${failures} non-2xx)` : f(rps, 0));
	const latency = ({ p50, p99 }) => `${f(p50)} / ${f(p99)}`;
	const time = runtime.find((r) => r.scenario === label);
	rows.push(
		[
			`${label}: req/s`,
			...names.map((n) => rps(result[n])),
			f(result.ratios.chanfana, 2),
			f(result.ratios.floor, 2),
		],
		[`${label}: p50 / p99 ms`, ...names.map((n) => latency(result[n])), "", ""],
		[`${label}: in-runtime ms/req`, f(time.appMs, 2), "", f(time.floorMs, 2), "", f(time.ratio, 2)],
		[`${label}: D1 calls/req`, String(time.d1Calls), "", String(time.d1Calls), "", ""],
	);
}
rows.push(
	["start-up ms (median of 9)", ...names.map((n) => f(median(startups[n]))), "", ""],
	["bundle KiB (gzip)", ...names.map((n) => `${bundle[n].raw} (${bundle[n].gzip})`), "", ""],
);

// Modules below this many ms per request in every column are summed into one row.
const shown = 0.01;
const columns = Object.keys(scenarios).flatMap((scenario) =>
	["app", "floor"].map((side) => profiles[scenario].modules[side]),
);
const modules = [...new Set(columns.flatMap((ms) => Object.keys(ms)))];
const total = (module) => columns.reduce((sum, ms) => sum + (ms[module] ?? 0), 0);
const major = modules
	.filter((module) => columns.some((ms) => (ms[module] ?? 0) >= shown))
	.sort((a, b) => total(b) - total(a));
const minor = modules.filter((module) => !major.includes(module));
const sum = (ms, of) => of.reduce((all, module) => all + (ms[module] ?? 0), 0);

const MiB = (bytes) => f(bytes / 2 ** 20);
const steps = (rss, process) => rss.map((r) => f(r[process] ?? 0, 0)).join(" → ");
const growth = Object.entries(memory).flatMap(([name, { heapBefore, heapAfter, failures }]) => {
	const grown = Object.entries(heapAfter.byConstructor)
		.map(([key, bytes]) => [key, bytes - (heapBefore.byConstructor[key] ?? 0)])
		.filter(([, growth]) => growth > 64 * 1024)
		.map(([key, growth]) => `${key} +${f(growth / 1024, 0)} KiB`);
	return grown.length || failures
		? [`- ${name}: ${failures} non-2xx; heap growth by constructor: ${grown.join(", ") || "none"}`]
		: [];
});

const commit = spawnSync("git", ["describe", "--always", "--dirty"], {
	cwd: root,
	encoding: "utf8",
}).stdout.trim();
const wranglerVersion = JSON.parse(
	await readFile(join(root, "node_modules/wrangler/package.json"), "utf8"),
).version;
const machine = cpus();
const report = `# Performance

<!-- Written by \`npm run bench\` (test/bench/run.mjs): change the text there, and run it again. -->

The figures of one run of \`npm run bench\`, the only place they are kept: commit ${commit}, ${new Date().toISOString().slice(0, 10)},
wrangler ${wranglerVersion}, ${machine.length} × ${machine[0]?.model.trim() ?? "unknown CPU"}. The bench never fails on a number;
whatever else runs on the machine moves them, so compare ratios measured in the same run rather than runs. Its
tables name the modules of that commit.

The three sides, each under \`wrangler dev\` on 127.0.0.1 with the same wrangler and compatibility date:

- **app**: this API, minified as \`npm run deploy\` ships it.
- **chanfana**: Cloudflare's chanfana OpenAPI template as it ships (\`test/bench/chanfana/\`); its one create
  stands in for both of our writes.
- **floor** (\`test/bench/floor.ts\`): the API's platform work without a framework: the API's own D1 statements
  (\`test/bench/floor-statements.ts\`, checked against the API's before anything is timed) through a D1 session,
  and on writes the write limiter's call and the queue nudge.

## Throughput, latency, start-up and size

${markdownTable(rows)}

Load: \`wrk -t2 -c${connections}\`, ${rounds} alternating rounds of ${seconds} s per side, 2xx answers only; a ratio is
taken per round, then the median across rounds. In-runtime (\`test/bench/runtime.bench.ts\`): wall time per request
inside workerd (the Workers Vitest integration, real local D1, limiter and queue included), both sides bundled as
\`wrangler deploy\` bundles them, in alternating rounds. Start-up: \`wrangler check startup\`. Bundle: \`wrangler deploy
--dry-run\`. Under \`wrangler dev\` every Worker, Durable Object and D1 database shares one workerd thread, so
throughput there is that thread's time per request, platform parts included (the asset router in front of
every request, the D1 session, the rate limiter's Durable Object); in production none of them runs on the
Worker's thread.

## An MCP tool call

${markdownTable([
	["in-runtime ms/req", "REST", "MCP tool call", "MCP/REST"],
	...mcp.results.map(({ scenario, restMs, mcpMs, ratio }) => [
		scenario,
		f(restMs, 2),
		f(mcpMs, 2),
		f(ratio, 2),
	]),
])}

A \`tools/call\` of revision 2026-07-28 (\`test/bench/mcp.bench.ts\`) beside the REST request it stands for, through the
same app bundled as above, in alternating rounds. The first \`/mcp\` request of an isolate loads the MCP SDK and
builds the tools: it took ${f(mcp.firstMs, 2)} ms, ${f(mcp.firstMs - mcp.warmMs, 2)} ms more than one once warm (${f(mcp.warmMs, 2)} ms). The MCP SDK's packages and
\`src/mcp/\` are ${f(bundle.app.mcp, 2)} KiB of the app's ${bundle.app.raw} KiB bundle (minified, before gzip).

${markdownTable([
	["a client's list and call, ms", "first", "later", "first − later"],
	...Object.entries(clientCalls).map(([name, { first, later, extra }]) => [
		name,
		f(first, 1),
		f(later, 1),
		f(extra, 1),
	]),
])}

Each client, in a process of its own as an agent starts (\`test/bench/mcp-clients.mjs\`), lists the tools and calls
\`getCategoryById\` against the app under \`wrangler dev\`, then does both again: the first time pays for compiling a
validator for every tool's output schema. Medians of 7 processes.

## Where the app's own CPU goes

${markdownTable([
	[
		"CPU ms/req in the Worker's isolate",
		...Object.keys(scenarios).flatMap((s) => [`${s}: app`, `${s}: floor`]),
	],
	...major.map((module) => [module, ...columns.map((ms) => f(ms[module] ?? 0, 3))]),
	[`${minor.length} others`, ...columns.map((ms) => f(sum(ms, minor), 3))],
	["sum of the medians", ...columns.map((ms) => f(sum(ms, modules), 3))],
])}

${ratioTable(profiles)}

A V8 sampling profile of the Worker's isolate through wrangler's inspector, each sample counted as one tick of the
sampler for the module of its nearest JavaScript frame (so native work such as \`new Response\` counts for its
caller), idle time left out. Per scenario, each side is first warmed with ${profileWarmup} of its requests, then
profiled in ${profileRounds} rounds of ${profiled} requests over 8 connections, the app and the floor back to back, which
goes first alternating, each round from a collected heap (the garbage it collects is its own). Per module, the
median across rounds; the app/floor ratio is taken per round, then its median, with the lowest and highest
round as percentages of it: its spread. The app runs unminified, so that its modules can be told apart, and
without its queue consumer, so that the profile is the request's own work.

What the app spends beyond the floor is its framework's work the floor leaves out: drizzle building each
statement on every request (the most, on writes), Hono's routing and middleware, zod's validation, the token's
digest. drizzle's prepared statements cannot take that away here: one is bound to the D1 session it was prepared
on (the API opens one per request, for its bookmark), and \`db.batch\`, which every write is, takes none
([drizzle-orm#2197](https://github.com/drizzle-team/drizzle-orm/issues/2197)).

## Memory under \`wrangler dev\`

${markdownTable([
	[
		`RSS MiB after 0 → … ${scenarios[memoryScenario]}`,
		"wrangler (Node)",
		"workerd: wrangler's proxy",
		"workerd: the Worker",
		"isolate's live JS heap MiB",
	],
	...Object.entries(memory).map(([name, { rss, heapBefore, heapAfter }]) => [
		name,
		steps(rss, "wrangler"),
		steps(rss, "proxy"),
		steps(rss, "worker"),
		`${MiB(heapBefore.bytes)} → ${MiB(heapAfter.bytes)}`,
	]),
])}
${growth.length ? `\n${growth.join("\n")}\n` : ""}
Each side alone on a fresh \`wrangler dev\`, ${memorySteps} steps of ${memoryStep} \`${scenarios[memoryScenario]}\` over 32 connections
(\`BENCH_MEMORY_SCENARIO\` chooses another request). The live heap comes from heap snapshots, which collect
garbage first, taken after a warm-up and after the last step; constructors whose live heap grew by more than
64 KiB are listed under the table. The bare floor sides add one platform part each to the floor's D1 alone, to
show what that part costs wrangler's processes. In production none of these processes exists: the memory limit
applies to the isolate, whose live heap is the last column.

## Webhooks

${markdownTable([["", "webhooks"], ...(await webhookRows())])}

\`test/bench/webhooks.mjs\`: D1 round trips per write, all told and in the request, with three endpoints
receiving every write, when each queue batch holds one write and when it holds a hundred; and deliveries per
second from a backlog under \`wrangler dev\`, with receivers on 127.0.0.1.
`;
await writeFile(join(root, "docs/performance.md"), report);
console.log(report);
