// Where `wrangler dev`'s memory lives: the resident size of each of its processes, and the live JavaScript heap
// of the Worker's isolate.
import { readdirSync, readFileSync } from "node:fs";

/** Every process under `pid`, with its command line. */
const processesUnder = (pid) => {
	const all = readdirSync("/proc").flatMap((entry) => {
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
			const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
			const command = readFileSync(`/proc/${entry}/cmdline`, "utf8");
			return [{ pid: Number(entry), parent, command }];
		} catch {
			return []; // A process that ended while we looked.
		}
	});
	const under = (parent) =>
		all
			.filter((process) => process.parent === parent)
			.flatMap((child) => [child, ...under(child.pid)]);
	return under(pid);
};

const rssMiB = (pid) =>
	Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;

/**
 * Resident memory in MiB of the processes `wrangler dev` (process `pid`, serving `port`) runs: wrangler's
 * Node process, the workerd that holds wrangler's proxy (listening on `port`) and the workerd that holds the
 * Worker with its D1 database, asset router and Durable Objects.
 */
export const rssByProcess = (pid, port) => {
	const rss = {};
	for (const process of processesUnder(pid)) {
		const role = process.command.includes("wrangler-dist/cli.js")
			? "wrangler"
			: !process.command.includes("workerd")
				? undefined
				: process.command.includes(`=127.0.0.1:${port}\0`)
					? "proxy"
					: "worker";
		if (role) rss[role] = rssMiB(process.pid);
	}
	return rss;
};

/**
 * The isolate's live JavaScript heap (a heap snapshot collects garbage first): its size in bytes, and the
 * bytes held by each constructor (other nodes by their kind, such as `(string)` or `(code)`).
 */
export const liveHeap = async (session) => {
	const chunks = [];
	session.on("HeapProfiler.addHeapSnapshotChunk", ({ chunk }) => chunks.push(chunk));
	await session.send("HeapProfiler.enable");
	await session.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
	await session.send("HeapProfiler.disable");
	const { snapshot, nodes, strings } = JSON.parse(chunks.join(""));
	const fields = snapshot.meta.node_fields;
	const [types] = snapshot.meta.node_types;
	const [type, name, size] = ["type", "name", "self_size"].map((field) => fields.indexOf(field));
	const byConstructor = {};
	let bytes = 0;
	for (let node = 0; node < nodes.length; node += fields.length) {
		const kind = types[nodes[node + type]];
		const key = kind === "object" || kind === "native" ? strings[nodes[node + name]] : `(${kind})`;
		byConstructor[key] = (byConstructor[key] ?? 0) + nodes[node + size];
		bytes += nodes[node + size];
	}
	return { bytes, byConstructor };
};
