import {
	OpenAPIHono,
	type RouteConfig,
	type RouteHandler,
} from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { validationHook } from "./validation";

/** A resource router whose validation failures all render as `validation_error`. */
export const createRouter = () =>
	new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

/** A handler typed from its route: a status or body the route does not declare is a type error. */
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;
