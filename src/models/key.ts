import { z } from "@hono/zod-openapi";
import { Id } from "./id";
import { keyPattern } from "./key-secret";
import { ScopeName, scopes } from "./scopes";
import { name as nameOf, nameRules } from "./text";

const name = nameOf(100).openapi({
	description: `What the key is for, to tell keys apart. ${nameRules}`,
	example: "Shop front",
});

const keyScopes = z
	.array(ScopeName)
	.min(1)
	.max(scopes.length)
	.refine((given) => new Set(given).size === given.length, "must not repeat a scope")
	.openapi({ description: "What the key may do: only scopes the caller holds." });

const expiresAt = z.iso
	.datetime({ offset: true })
	.openapi({ description: "When the key stops working: a time to come. Absent or null: never." });

export const NewKey = z
	.strictObject({ name, scopes: keyScopes, expiresAt: expiresAt.optional() })
	.openapi("NewKey", { example: { name: "Shop front", scopes: ["orders:write"] } });
export type NewKey = z.infer<typeof NewKey>;

export const KeyPatch = z
	.strictObject({ name, scopes: keyScopes, expiresAt: expiresAt.nullable() })
	.partial()
	.refine((patch) => Object.keys(patch).length > 0, "must change at least one field")
	.openapi("KeyPatch", { minProperties: 1, example: { scopes: ["orders:write", "pets:write"] } });
export type KeyPatch = z.infer<typeof KeyPatch>;

export const KeyRoll = z
	.strictObject({
		previousValidFor: z
			.int()
			.min(0)
			.max(86_400)
			.default(3600)
			.openapi({
				description:
					"Seconds the previous secret keeps working, so clients can move to the new one.",
			}),
	})
	.openapi("KeyRoll", { example: { previousValidFor: 3600 } });
export type KeyRoll = z.infer<typeof KeyRoll>;

const example = {
	id: 1,
	name: "Shop front",
	scopes: ["orders:write"],
	start: "pst_7Hq2",
	createdAt: "2026-12-24T09:00:00.000Z",
	lastUsedAt: "2026-12-24T10:31:00.000Z",
};

const dateTime = z.string().openapi({ format: "date-time" });

const fields = {
	id: Id,
	name,
	scopes: z.array(ScopeName),
	start: z.string().openapi({ description: "`pst_` and the first 4 characters after it." }),
	createdAt: dateTime,
	expiresAt: dateTime.optional().openapi({ description: "When it stops working; absent: never." }),
	lastUsedAt: dateTime
		.optional()
		.openapi({
			description:
				"When it last authorised a request (kept at most once a minute); absent before its first.",
		}),
};

/** An API key, without its secret. */
export const ApiKey = z.object(fields).openapi("ApiKey", { example });

export const ApiKeys = z.array(ApiKey).openapi("ApiKeys");

/** A key with its secret: shown when it is made or rolled, and never again. */
export const ApiKeyWithSecret = z
	.object({
		...fields,
		secret: z
			.string()
			.regex(keyPattern)
			.openapi({
				description: "The key itself, for `Authorization: Bearer`: shown only in this response.",
			}),
	})
	.openapi("ApiKeyWithSecret", {
		example: {
			...example,
			lastUsedAt: undefined,
			secret: "pst_7Hq2TbXo1LmZ8vQe4RkW9sYc3NdA6uJf3IDzO0",
		},
	});
