// Where a Worker's own CPU time goes under `wrangler dev`: a sampling profile of its isolate through wrangler's
// inspector, each sample counted for the module of its nearest JavaScript frame (native code such as
// `Response` or `JSON.stringify` counts for the module that called it).

/** Sampling interval asked of V8, in µs; the profile's own timestamps say what it achieved. */
const interval = 100;

/** A module's name: its package (hono's middleware each by name), or for our code its file. */
const moduleName = (path) => {
	const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
	if (dependency) {
		const [, name, file] = dependency;
		if (name === "wrangler") return "wrangler dev's wrapper";
		const middleware = /^dist\/middleware\/([^/]+)\//.exec(file);
		return middleware && name === "hono" ? `hono/${middleware[1]}` : name;
	}
	return /(?:^|\/)((?:src|test)\/.*)$/.exec(path)?.[1] ?? "wrangler dev's wrapper";
};

/** The bundle's modules by first line: an unminified esbuild bundle heads each module with `// <path>`. */
const modulesOf = (source) =>
	source.split("\n").flatMap((line, index) => {
		const path = /^\/\/ (\S+\.[cm]?[jt]sx?)$/.exec(line)?.[1];
		return path ? [{ line: index, name: moduleName(path) }] : [];
	});

/** The module that holds `line` of a bundle; before the first one, esbuild's helpers. */
const moduleAt = (modules, line) =>
	modules.findLast((module) => module.line <= line)?.name ?? "esbuild helpers";

/**
 * A profiler of the Worker behind the inspector `session`: `profile(load, requests)` profiles its isolate while
 * `load()` sends `requests` requests, and answers the isolate's CPU time per request, in ms, by module. Idle
 * time is left out.
 */
export const profiler = async (session) => {
	const bundles = new Map();
	const urls = new Map();
	session.on("Debugger.scriptParsed", ({ scriptId, url }) => urls.set(scriptId, url));
	await session.send("Debugger.enable");
	for (const [scriptId, url] of urls) {
		// The Worker's bundle, as wrangler dev writes it; other scripts are runtime or miniflare modules.
		if (!url.includes("/.wrangler/tmp/")) continue;
		const { scriptSource } = await session.send("Debugger.getScriptSource", { scriptId });
		const modules = modulesOf(scriptSource);
		if (modules.length) bundles.set(scriptId, modules);
	}
	await session.send("Debugger.disable");
	session.on("HeapProfiler.addHeapSnapshotChunk", () => {}); // Only its collection is wanted.
	await session.send("Profiler.enable");
	await session.send("Profiler.setSamplingInterval", { interval });

	const profile = async (load, requests) => {
		// From a collected heap: a full collection of garbage that earlier requests left would otherwise land in
		// whichever profile its turn came in, at up to twice that profile's CPU. workerd never answers
		// HeapProfiler.collectGarbage; a heap snapshot collects first.
		await session.send("HeapProfiler.enable");
		await session.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
		await session.send("HeapProfiler.disable");
		await session.send("Profiler.start");
		await load();
		// workerd answers a Profiler command it takes no result from with the command itself; once in a while,
		// on a busy machine, that is its answer to Profiler.stop too, with no profile: then profile again.
		const { profile: taken } = await session.send("Profiler.stop");
		if (!taken) return profile(load, requests);
		const nodes = new Map(taken.nodes.map((node) => [node.id, node]));
		const parents = new Map();
		for (const node of taken.nodes) {
			for (const child of node.children ?? []) parents.set(child, node);
		}
		const moduleOf = (leaf) => {
			for (let node = leaf; node; node = parents.get(node.id)) {
				const { url, scriptId, lineNumber } = node.callFrame;
				if (!url) continue;
				const modules = bundles.get(scriptId);
				return modules ? moduleAt(modules, lineNumber) : url.replace(/^.*\//, "");
			}
			return leaf.callFrame.functionName || "(native)";
		};
		// V8 takes a sample at each tick of its sampler while the isolate runs, none while it waits its turn:
		// the deltas are one tick within a turn and longer across the gaps. A sample stands for one tick, the
		// median of the shortest deltas (up to 1.5 × their 5th percentile). The median of all deltas is a gap
		// whenever most turns are shorter than two ticks, as a light Worker's are: it doubled such a profile.
		const deltas = taken.timeDeltas.filter((delta) => delta > 0).toSorted((a, b) => a - b);
		const shortest = deltas[Math.floor(deltas.length / 20)];
		const ticks = deltas.filter((delta) => delta <= 1.5 * shortest);
		const period = ticks[Math.floor(ticks.length / 2)];
		const ms = {};
		for (const sample of taken.samples) {
			const name = moduleOf(nodes.get(sample));
			if (name === "(idle)") continue;
			ms[name] = (ms[name] ?? 0) + period / 1000 / requests;
		}
		return ms;
	};
	return { profile };
};
