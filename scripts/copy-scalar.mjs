// Copies Scalar's browser bundle into the reference page's static assets (never committed), without the
// source-map comment, whose map is not served.
import { readFileSync, writeFileSync } from "node:fs";

const bundle = readFileSync(
	"node_modules/@scalar/api-reference/dist/browser/standalone.js",
	"utf8",
);
writeFileSync(
	"src/reference/assets/reference/scalar.js",
	bundle.replace(/\n\/\/# sourceMappingURL=.*\s*$/, "\n"),
);
