import type { Hono } from "hono";
import type { BlankEnv, Schema } from "hono/types";
import { createApp } from "./app";
import type { AppEnv } from "./env";

/** The app's routes with a blank environment: the Worker's bindings are no part of a client's type. */
const withoutEnv = <S extends Schema>(app: Hono<AppEnv, S>) =>
	app as unknown as Hono<BlankEnv, S, "/">;

/** Never called: its inferred type is the app's schema, written out in full in the emitted declarations. */
const routes = () => withoutEnv(createApp());

/** The app's type, by which `hono/client` types a client: `hc<AppType>(origin)` (https://hono.dev/docs/guides/rpc). */
export type AppType = ReturnType<typeof routes>;
