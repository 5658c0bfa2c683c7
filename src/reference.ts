import { type Context, Hono } from "hono";
import type { AppEnv } from "./env";
import { ApiError } from "./models/error";

/** Serves a file of the reference page from the Workers static assets (see wrangler.toml). */
const asset = async (c: Context<AppEnv>) => {
	const file = await c.env.ASSETS.fetch(c.req.raw);
	if (file.status === 404) throw new ApiError("not_found", `No resource at ${c.req.path}.`);
	// Through the context, so that the headers the app's middleware staged are added.
	return c.newResponse(file.body, file);
};

/** GET /reference: the interactive API reference, whose files stay outside the Worker bundle. */
export const reference = new Hono<AppEnv>().get("/reference", asset).get("/reference/*", asset);
