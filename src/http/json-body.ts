import type { MiddlewareHandler } from "hono";
import { ApiError } from "../models/error";

// RFC 9110 §8.3.1: media-type = type "/" subtype *( OWS ";" OWS [ parameter ] ), a parameter being
// token "=" ( token / quoted-string ), names case-insensitive.
const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const quoted = '"(?:[\\t !#-\\[\\]-~\\x80-\\xff]|\\\\[\\t -~\\x80-\\xff])*"';
const mediaTypePattern = new RegExp(
	`^(${token})/(${token})((?:[ \\t]*;[ \\t]*(?:${token}=(?:${token}|${quoted}))?)*)[ \\t]*$`,
);
const parameterPattern = new RegExp(`(${token})=(${token}|${quoted})`, "g");

/** Whether `header` is `application/json` in UTF-8: no `charset`, or only `utf-8` (any case, `utf8` too). */
const isUtf8Json = (header: string) => {
	const [, type, subtype, parameters = ""] = mediaTypePattern.exec(header) ?? [];
	if (`${type}/${subtype}`.toLowerCase() !== "application/json") return false;
	return [...parameters.matchAll(parameterPattern)].every(([, name, value]) => {
		const unquoted = value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, "$1") : value;
		return name.toLowerCase() !== "charset" || /^utf-?8$/i.test(unquoted);
	});
};

/** A JSON object: not null, not an array. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === "object" && value !== null && !Array.isArray(value);

/** `text` parsed as JSON; a `malformed_json` when it is not. */
export const parseJson = (text: string): unknown => {
	try {
		return JSON.parse(text);
	} catch {
		throw new ApiError("malformed_json");
	}
};

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

const notJson = () =>
	new ApiError("unsupported_media_type", "The request body must be application/json in UTF-8.");

/**
 * Every JSON body, `/mcp`'s included, is `application/json` in UTF-8 (RFC 8259 §8.1): `+json` dialects and other
 * charsets are 415; bytes not UTF-8 are 400 `malformed_json`, never stored as U+FFFD.
 */
export const utf8Json: MiddlewareHandler = async (c, next) => {
	const contentType = c.req.header("content-type");
	if (contentType && c.req.raw.body && /json/i.test(contentType)) {
		if (!isUtf8Json(contentType)) throw notJson();
		const body = await c.req.arrayBuffer();
		try {
			utf8.decode(body);
		} catch (error) {
			if (!(error instanceof TypeError)) throw error;
			throw new ApiError("malformed_json", "The request body is not valid UTF-8.");
		}
		// Spelled as the route validators expect it, which read fewer of RFC 9110's forms.
		if (!/^application\/json(;\s*[\w-]+=[^;]+)*$/i.test(contentType)) {
			const headers = new Headers(c.req.raw.headers);
			headers.set("content-type", "application/json");
			c.req.raw = new Request(c.req.raw, { headers, body });
		}
	}
	await next();
};

/** A body-less operation takes none, or `{}` (sent by habit); another is refused, never ignored (RFC 9110 §15.5.16). */
export const noBody: MiddlewareHandler = async (c, next) => {
	const text = c.req.raw.body ? await c.req.text() : "";
	if (text.length > 0) {
		if (!isUtf8Json(c.req.header("content-type") ?? "")) {
			throw new ApiError("unsupported_media_type", "This operation takes no request body.");
		}
		const body = parseJson(text);
		const details = isObject(body)
			? Object.keys(body).map((name) => ({ path: `body.${name}`, message: "Unknown field." }))
			: [{ path: "body", message: "must be absent, or an empty object" }];
		if (details.length > 0) {
			throw new ApiError(
				"validation_error",
				"This operation takes no request body: send none, or {}.",
				details,
			);
		}
	}
	await next();
};
