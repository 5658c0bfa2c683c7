// Scalar's browser bundle for the reference page's static assets (never committed), without the source-map
// comment, whose map is not served. `npm install` runs it (`npm run reference:build`): it fetches the one
// version package.json pins (`config.scalar`: version and integrity) from the registry with `npm pack`, checks
// the tarball against the pinned integrity, and takes `dist/browser/standalone.js` out of it. So the project
// installs none of `@scalar/api-reference`'s dependencies, which that file already carries.
//
// `npm run reference:update` (or `npm run reference:update -- <version>`) pins the latest (or that) version
// with its integrity and builds the file again; `npm run test:e2e -- reference` then checks the page with it.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

const name = "@scalar/api-reference";
const entry = "package/dist/browser/standalone.js";
const output = "src/reference/assets/reference/scalar.js";

/** npm with `args`, quiet; what it prints on stdout, parsed as JSON. */
const npm = (args) =>
	JSON.parse(
		execFileSync("npm", [...args, "--json", "--silent"], {
			encoding: "utf8",
			maxBuffer: 64 * 1024 * 1024,
			shell: process.platform === "win32",
		}),
	);

if (process.argv[2] === "--update") {
	const { version, "dist.integrity": integrity } = npm([
		"view",
		`${name}@${process.argv[3] ?? "latest"}`,
		"version",
		"dist.integrity",
	]);
	// In place, so that the rest of package.json keeps its formatting.
	const text = readFileSync("package.json", "utf8");
	const updated = text.replace(
		/("scalar": \{\s*"version": ")[^"]*(",\s*"integrity": ")[^"]*/,
		`$1${version}$2${integrity}`,
	);
	const written = JSON.parse(updated).config.scalar;
	if (written.version !== version || written.integrity !== integrity) {
		throw new Error("package.json's config.scalar is not { version, integrity }");
	}
	writeFileSync("package.json", updated);
	console.log(`${name} pinned at ${version}`);
}

const pinned = JSON.parse(readFileSync("package.json", "utf8")).config.scalar;

/** The file at `path` in the gzipped tar `archive`: a ustar header of 512 bytes before each file's blocks. */
const fileOf = (archive, path) => {
	const tar = gunzipSync(archive);
	for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
		const field = (start, length) =>
			tar.toString("latin1", at + start, at + start + length).replace(/\0.*$/s, "");
		const prefix = field(345, 155);
		const size = Number.parseInt(field(124, 12).trim() || "0", 8);
		if ((prefix ? `${prefix}/${field(0, 100)}` : field(0, 100)) === path) {
			return tar.subarray(at + 512, at + 512 + size);
		}
		at += 512 + Math.ceil(size / 512) * 512;
	}
	throw new Error(`${path} is not in ${name}@${pinned.version}`);
};

const work = mkdtempSync(join(tmpdir(), "scalar-"));
try {
	const [packed] = npm(["pack", `${name}@${pinned.version}`, "--pack-destination", work]);
	const archive = readFileSync(join(work, packed.filename));
	const integrity = `sha512-${createHash("sha512").update(archive).digest("base64")}`;
	if (integrity !== pinned.integrity) {
		throw new Error(
			`${name}@${pinned.version} from the registry is ${integrity}, not the pinned ${pinned.integrity}`,
		);
	}
	const bundle = fileOf(archive, entry).toString("utf8");
	writeFileSync(output, bundle.replace(/\n\/\/# sourceMappingURL=.*\s*$/, "\n"));
} finally {
	rmSync(work, { recursive: true, force: true });
}
