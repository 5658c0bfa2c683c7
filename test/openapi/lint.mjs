// Validates the OpenAPI document the Worker actually serves at /doc with independent tools:
// @apidevtools/swagger-parser, `redocly lint`, `spectral lint` and `openapi-examples-validator` (every example
// against its schema), all of test/third-party. Exits non-zero on any problem.
import { execFileSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unstable_startWorker } from "wrangler";
import { bin } from "../third-party/index.mjs";
import { SwaggerParser } from "../third-party/swagger-parser.mjs";

const here = import.meta.dirname;

const servedDocument = async () => {
	const worker = await unstable_startWorker({
		config: "wrangler.toml",
		dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: false, logLevel: "error" },
	});
	try {
		const response = await worker.fetch("http://127.0.0.1/doc");
		if (!response.ok) throw new Error(`GET /doc answered ${response.status}`);
		return await response.text();
	} finally {
		await worker.dispose();
	}
};

const file = join(await mkdtemp(join(tmpdir(), "petstore-openapi-")), "openapi.json");
await writeFile(file, await servedDocument());

await SwaggerParser.validate(file);
console.log("swagger-parser: valid");

const run = (command, args) =>
	execFileSync(bin(command), args, {
		stdio: "inherit",
		env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
	});
run("redocly", ["lint", file, "--config", join(here, "redocly.yaml")]);
run("spectral", [
	"lint",
	file,
	"--ruleset",
	join(here, "spectral.yaml"),
	"--fail-severity",
	"warn",
]);
run("openapi-examples-validator", [file]);
