// import.meta.glob: vitest runs this file through Vite.
/// <reference types="vite/types/importMeta.d.ts" />
import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import * as zod from "zod/v4";
import { members } from "../src/bundle/zod";
import { util } from "../src/bundle/zod-core";

// The source of every module under src/, as text (src/bundle/ holds the stand-ins themselves).
const sources = Object.entries(
	import.meta.glob<string>(["../src/**/*.ts", "!../src/bundle/**"], {
		query: "?raw",
		import: "default",
		eager: true,
	}),
);

// The modules of zod's classic API that read core's `util` through the index the alias replaces.
const utilReaders = Object.values(
	import.meta.glob<string>("../node_modules/zod/v4/classic/*.js", {
		query: "?raw",
		import: "default",
		eager: true,
	}),
).filter((source) =>
	/import \{[^}]*\butil\b[^}]*\} from "\.\.\/core\/index\.js"/.test(source),
);

/** The members of zod's namespace a source reads at run time: `z.object(...)`, `z\n.enum(...)`; not `z.infer<...>`. */
const zodMembersRead = (source: string) =>
	[...source.matchAll(/\bz\s*\.\s*([A-Za-z_$][\w$]*)/g)]
		.map(([, member]) => member)
		.filter((member) => member in zod);

// vitest.config.ts applies wrangler.toml's [alias], so every test runs the modules the Worker bundle holds.
describe("the Worker bundle", () => {
	it("carries zod's English locale alone", () => {
		expect(Object.keys(zod.locales)).toEqual(["en"]);
		expect(z.string().safeParse(7).error?.issues[0].message).toBe(
			"Invalid input: expected string, received number",
		);
	});

	it("holds every member of zod's namespace that src/ reads", () => {
		expect(sources.length).toBeGreaterThan(20);
		const read = new Set(
			sources.flatMap(([, source]) => zodMembersRead(source)),
		);
		expect(read).toContain("object");
		expect([...read].filter((member) => !(member in members))).toEqual([]);
	});

	it("holds every function of zod's util that its classic API calls", () => {
		expect(utilReaders.length).toBeGreaterThan(0);
		const called = new Set(
			utilReaders.flatMap((source) =>
				[...source.matchAll(/\butil\.([A-Za-z_$][\w$]*)/g)].map(
					([, name]) => name,
				),
			),
		);
		expect(called).toContain("normalizeParams");
		expect([...called].filter((name) => !(name in util))).toEqual([]);
	});

	it("names the stand-in to extend when code reads a member it leaves out", () => {
		expect(() => z.tuple).toThrow(
			"z.tuple is not in the Worker bundle: add it to src/bundle/zod.ts",
		);
	});
});
