import { type Hook, z } from "@hono/zod-openapi";
import type { ZodError } from "zod";
import { ApiError, type ErrorDetail } from "../models/error";

/** The part of the request a validation target reads, as clients name it, where the names differ. */
const locations: Record<string, string> = { json: "body", param: "path" };

const toDetails = (error: ZodError, location: string): ErrorDetail[] =>
	error.issues.flatMap((issue) => {
		const path = [location, ...issue.path.map(String)];
		if (issue.code === "unrecognized_keys") {
			return issue.keys.map((key) => ({
				path: [...path, key].join("."),
				message: `Unknown ${location === "body" ? "field" : "parameter"}.`,
			}));
		}
		return [{ path: path.join("."), message: issue.message }];
	});

/** A schema violation in a part of the request (`json`, `param`, `query`, `header`), each field named. */
export const invalidRequest = (error: ZodError, target: string) =>
	new ApiError("validation_error", undefined, toDetails(error, locations[target] ?? target));

/** An optional request header: sent empty, it counts as absent (some clients send every header they know). */
export const optionalHeader = <T extends z.ZodType>(schema: T) =>
	z.preprocess((value) => (value === "" ? undefined : value), schema.optional()).optional();

// biome-ignore lint/suspicious/noExplicitAny: the hook is shared by routes of every input and env type
export const validationHook: Hook<any, any, any, any> = (result) => {
	if (!result.success) throw invalidRequest(result.error, result.target);
};
