// Writes dist/client.d.ts, what `petstore-api/client` ships: src/client.ts's declarations, in which `AppType`
// is the app's schema written out in full, so that a client's compiler reads no file of src/.
import { mkdirSync, writeFileSync } from "node:fs";
import ts from "typescript";

const entry = "src/client.ts";
const host = {
	getCanonicalFileName: (name) => name,
	getCurrentDirectory: ts.sys.getCurrentDirectory,
	getNewLine: () => ts.sys.newLine,
};
/** Stops the build with the compiler's diagnostics. */
const fail = (diagnostics) => {
	throw new Error(ts.formatDiagnostics(diagnostics, host));
};

const { options } = ts.getParsedCommandLineOfConfigFile(
	"tsconfig.json",
	{ noEmit: false, declaration: true, emitDeclarationOnly: true },
	{ ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => fail([diagnostic]) },
);
// The entry and the ambient declarations src/ relies on: the Worker's `Env`, and text modules.
const program = ts.createProgram({
	rootNames: [entry, "src/worker-configuration.d.ts", "src/text-modules.d.ts"],
	options,
});
let declarations = "";
const { emitSkipped, diagnostics } = program.emit(
	program.getSourceFile(entry),
	(_, text) => {
		declarations = text;
	},
	undefined,
	true,
);
if (emitSkipped || diagnostics.length > 0) fail(diagnostics);

// A client installs hono beside this package, and nothing else of its dependencies.
const imported = [...declarations.matchAll(/(?:from |import\()"([^"]+)"/g)].map(([, name]) => name);
const foreign = imported.filter((name) => !/^hono(\/|$)/.test(name));
if (foreign.length > 0) {
	throw new Error(
		`${entry}'s declarations import ${foreign.join(", ")}, where a client has only hono`,
	);
}
mkdirSync("dist", { recursive: true });
writeFileSync("dist/client.d.ts", declarations);
