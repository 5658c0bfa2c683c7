// Adds to .dev.vars (git-ignored) every variable of .dev.vars.example that it lacks, keeping the developer's own.
import { appendFileSync, existsSync, readFileSync } from "node:fs";

const mine = existsSync(".dev.vars") ? readFileSync(".dev.vars", "utf8") : "";
const nameOf = (line) => line.split("=")[0];
const have = new Set(mine.split("\n").map(nameOf));
const missing = readFileSync(".dev.vars.example", "utf8")
	.split("\n")
	.filter((line) => /^\w+=/.test(line) && !have.has(nameOf(line)));
if (missing.length > 0) {
	const separator = mine && !mine.endsWith("\n") ? "\n" : "";
	appendFileSync(".dev.vars", `${separator}${missing.join("\n")}\n`);
}
