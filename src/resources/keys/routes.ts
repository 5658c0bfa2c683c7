import { z } from "@hono/zod-openapi";
import { apiKey } from "../../db/resources";
import { linkHeader, pageQuery } from "../../http/pagination";
import { createdContent, jsonBody, jsonContent } from "../../http/responses";
import { apiRoute, type Tag } from "../../http/route";
import { idParam } from "../../models/id";
import { ApiKey, ApiKeys, ApiKeyWithSecret, KeyPatch, KeyRoll, NewKey } from "../../models/key";

const tag: Tag = {
	name: "Keys",
	title: "API keys",
	description:
		"Each client's own credential: its scopes, its write budget, its `Idempotency-Key`s and its webhooks. A key's secret is shown once, when it is made or rolled; revoking or expiring it takes effect everywhere within 10 seconds.",
	icon: "key",
	parent: "Access",
};
/** What every operation on keys declares, and one key's besides. */
const manage = { scope: "keys:manage", tag } as const;
const item = { ...manage, path: apiKey.itemPath, conditional: true } as const;
const params = z.object({ keyId: idParam("keyId") });
const widening = "Only scopes the credential holds, and no later expiry than its own.";

export const listKeys = apiRoute({
	...manage,
	method: "get",
	path: apiKey.path,
	operationId: "listKeys",
	summary: "List API keys",
	description: "Every key, in id order, without its secret.",
	request: { query: z.object(pageQuery) },
	responses: { 200: { ...jsonContent(ApiKeys, "A page of keys."), headers: linkHeader } },
});

export const createKey = apiRoute({
	...manage,
	method: "post",
	path: apiKey.path,
	operationId: "createKey",
	summary: "Make an API key",
	description: `Answers the key with its secret, shown this once. ${widening}`,
	request: { body: jsonBody(NewKey, "The key to make.") },
	responses: { 201: createdContent(ApiKeyWithSecret, "The new key, with its secret.") },
});

export const getKey = apiRoute({
	...item,
	method: "get",
	operationId: "getKey",
	summary: "Find an API key by id",
	description: "One key, without its secret.",
	request: { params },
	errors: ["not_found"],
	responses: { 200: jsonContent(ApiKey, "The key.") },
});

export const updateKey = apiRoute({
	...item,
	method: "patch",
	operationId: "updateKey",
	summary: "Change an API key",
	description: `Changes its name, scopes or expiry (null: never). ${widening} A key holding scopes the credential lacks, or outliving it, is refused.`,
	request: { params, body: jsonBody(KeyPatch, "The fields to change; at least one.") },
	errors: ["not_found"],
	responses: { 200: jsonContent(ApiKey, "The changed key.") },
});

export const revokeKey = apiRoute({
	...item,
	method: "delete",
	operationId: "revokeKey",
	summary: "Revoke an API key",
	description:
		"The key stops working everywhere within 10 seconds, with every grant it made to an agent; its webhooks are disabled at once (each records `webhook.disabled`).",
	request: { params },
	errors: ["not_found"],
	responses: { 204: { description: "Revoked." } },
});

export const rollKey = apiRoute({
	...manage,
	method: "post",
	path: `${apiKey.itemPath}/roll`,
	operationId: "rollKey",
	summary: "Roll an API key",
	description:
		"Answers a new secret, shown this once; the previous one keeps working for `previousValidFor` seconds. The key keeps its id, scopes, expiry, budget, `Idempotency-Key`s and webhooks. A key holding scopes the credential lacks, or outliving it, is refused.",
	request: { params, body: jsonBody(KeyRoll, "How long the previous secret keeps working.") },
	errors: ["not_found"],
	responses: { 200: jsonContent(ApiKeyWithSecret, "The key, with its new secret.") },
});
