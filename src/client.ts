/// <reference path="./worker-configuration.d.ts" />
/** The app's type, by which `hono/client` types a client: `hc<AppType>(origin)` (https://hono.dev/docs/guides/rpc). */
export type { AppType } from "./app";
