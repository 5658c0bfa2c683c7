// Where test/third-party's packages are, for what finds them by path: a command line tool, a package's own
// dependencies. scripts/third-party.mjs installs them (`npm run test:e2e`, `lint:openapi` and `bench` run it).
import { join } from "node:path";

/** test/third-party/node_modules. */
export const modules = join(import.meta.dirname, "node_modules");

/** The command line tool `name` that a package of test/third-party installs. */
export const bin = (name) => join(modules, ".bin", name);
