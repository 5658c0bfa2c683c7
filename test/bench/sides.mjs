// The Workers `npm run bench` runs under `wrangler dev`, each as a wrangler config written to a temporary
// directory, on the API's compatibility date, with the requests it is measured by.
import { createHash } from "node:crypto";
import { symlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { unstable_readConfig } from "wrangler";
import { root } from "../support/wrangler-dev.mjs";
import { modules } from "../third-party/index.mjs";

/** Long enough for production, which the bench stands for. */
export const token = "bench-token-0123456789abcdef0123456789";
/** The API key the API's writes are measured with, as clients write: its checksum holds (src/models/key-secret.ts). */
const key = "pst_BenchKey0123456789abcdefghijklmn197Z2M";
const app = unstable_readConfig({ config: join(root, "wrangler.toml") });

/** A config as JSON in `work`, on the API's compatibility date, every limiter raised, `changes` applied. */
const configOf = async (work, name, path, changes = {}) => {
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
			durable_objects: config.durable_objects,
			migrations: config.migrations,
			vars: config.vars,
			// The load measures work, not 429s.
			ratelimits: config.ratelimits.map((limiter) => ({
				...limiter,
				simple: { ...limiter.simple, limit: 100_000_000 },
			})),
			d1_databases: config.d1_databases.map((db) => ({
				...db,
				migrations_dir: resolve(dir, db.migrations_dir),
			})),
			...(config.assets && {
				assets: { ...config.assets, directory: resolve(dir, config.assets.directory) },
			}),
			...changes,
		}),
	);
	return file;
};

const json = (body, auth = true) => ({
	method: "POST",
	body,
	headers: { "content-type": "application/json", ...(auth && { authorization: `Bearer ${key}` }) },
});

/** The API's and the floor's seed, and the requests each scenario sends them. */
const petstoreRequests = {
	seed: `INSERT INTO categories (id, name, name_key) VALUES (1, 'Bench', 'bench'); INSERT INTO pets (id, name, name_key, category_id, status) VALUES (1, 'Bench', 'bench', 1, 'available'); INSERT INTO inventory (pet_id, quantity) VALUES (1, 1000000); INSERT INTO api_keys (name, scopes, start, hash, created_at) VALUES ('Bench', '["pets:write","orders:write"]', '${key.slice(0, 8)}', '${createHash("sha256").update(key).digest("hex")}', '2026-11-27T00:00:00.000Z');`,
	read: { path: "/pets/1" },
	write: { path: "/pets", ...json({ name: "Load", categoryId: 1 }) },
	order: { path: "/store/orders", ...json({ petId: 1, quantity: 1 }) },
};

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

/** The API as configured in wrangler.toml and minified as `npm run deploy` does, with the bench's secrets and `changes`. */
const apiConfig = (work, name, changes = {}) =>
	configOf(work, name, "wrangler.toml", {
		minify: true,
		vars: {
			API_TOKEN: token,
			CURSOR_SECRET: "bench-cursor-secret",
			WEBHOOK_SECRET_KEY: "bench-webhook-secret-key-0123456789abcdef",
		},
		...changes,
	});

/** The floor (floor.ts) with `changes`. */
const floorConfig = (work, name, changes = {}) =>
	configOf(work, name, "test/bench/wrangler.toml", changes);

/**
 * The chanfana template's config. Its packages (chanfana, hono, zod) are test/third-party's, which its directory
 * links as its own node_modules, where wrangler's bundler looks from index.ts, as in the template as it ships.
 */
const chanfanaConfig = async (work) => {
	await symlink(modules, join(root, "test/bench/chanfana/node_modules"), "junction").catch(
		(error) => {
			if (error.code !== "EEXIST") throw error;
		},
	);
	return configOf(work, "chanfana", "test/bench/chanfana/wrangler.toml");
};

/** The sides loaded in turn for throughput: the API, Cloudflare's chanfana template, the floor. */
export const loadSides = async (work) => ({
	app: { ...petstoreRequests, config: await apiConfig(work, "app"), port: 8851 },
	chanfana: {
		config: await chanfanaConfig(work),
		port: 8852,
		seed: "INSERT INTO tasks (id, name, slug, description, completed, due_date) VALUES (1, 'Bench', 'bench', 'A task', 0, '2026-12-24T09:00:00.000Z');",
		read: { path: "/tasks/1" },
		write: { path: "/tasks", ...task },
		order: { path: "/tasks", ...task },
	},
	floor: { ...petstoreRequests, config: await floorConfig(work, "floor"), port: 8853 },
});

/**
 * The sides profiled: the floor, and the API unminified (its modules then head themselves in the bundle) and
 * without its queue consumer, whose sweeps would run in the same isolate: the profile is the request's work.
 */
export const profileSides = async (work) => ({
	app: {
		...petstoreRequests,
		config: await apiConfig(work, "app-profile", {
			minify: false,
			queues: { producers: app.queues.producers },
		}),
		port: 8851,
		inspectorPort: 8861,
	},
	floor: {
		...petstoreRequests,
		config: await floorConfig(work, "floor-profile"),
		port: 8852,
		inspectorPort: 8862,
	},
});

/** The bare floor, D1 alone, plus `parts` (floor.ts) and `changes`, as the config `name`. */
const bareFloor = (work, name, parts = [], changes = {}) =>
	floorConfig(work, name, { vars: { FLOOR_PARTS: parts.join(",") }, ...changes });

/**
 * The sides whose memory is measured under `scenario`, one at a time: the API, the floor, and the bare floor
 * (D1 alone) plus only one of the platform parts the API adds to that request, to show that part on its own.
 * On a read the floor is the bare floor plus its session; the limiter and the queue serve writes only.
 */
export const memorySides = async (work, scenario) => {
	const write = scenario !== "read";
	// One at a time, each on the same ports.
	const side = { ...petstoreRequests, port: 8851, inspectorPort: 8861 };
	return {
		app: { ...side, config: await apiConfig(work, "app-memory") },
		floor: { ...side, config: await floorConfig(work, "floor-memory") },
		"bare floor": { ...side, config: await bareFloor(work, "bare") },
		...(write && {
			"bare floor + its session": {
				...side,
				config: await bareFloor(work, "bare-session", ["session"]),
			},
			"bare floor + the write limiter": {
				...side,
				config: await bareFloor(work, "bare-limiter", ["limiter"]),
			},
			"bare floor + the queue nudge": {
				...side,
				config: await bareFloor(work, "bare-queue", ["queue"]),
			},
		}),
		"bare floor + the asset router": {
			...side,
			config: await bareFloor(work, "bare-assets", [], {
				assets: { ...app.assets, directory: resolve(root, app.assets.directory) },
			}),
		},
		"bare floor without wrangler's local traces": {
			...side,
			config: await bareFloor(work, "bare-untraced"),
			// Wrangler records every invocation's trace for its local explorer unless told not to.
			env: { X_LOCAL_OBSERVABILITY: "false" },
		},
	};
};
