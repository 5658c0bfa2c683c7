import { z } from "@hono/zod-openapi";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import type { Resource } from "../db/resource";
import { changeOne, createOne, type Fields, type Refusal, removeOne } from "../db/write";
import type { AppEnv } from "../env";
import { withETag } from "../http/conditional";
import { linkHeader, listPage, pageQuery } from "../http/pagination";
import { createdContent, exampleOf, jsonBody, jsonContent } from "../http/responses";
import { apiRoute, type Tag } from "../http/route";
import { createRouter, retrying } from "../http/router";
import { writeContext } from "../http/write-context";
import type { ErrorCode } from "../models/error-codes";
import type { EventType } from "../models/event-types";
import { byId, idParam } from "../models/id";
import type { Scope } from "../models/scopes";

/** A noun whose `.created`, `.updated` and `.deleted` events src/models/event-types.ts declares. */
type EventNoun = {
	[T in EventType]: T extends `${infer N}.created`
		? `${N}.updated` | `${N}.deleted` extends EventType
			? N
			: never
		: never;
}[EventType];

/** A request validated against one of the routes below. */
type Given = Context<
	AppEnv,
	string,
	{
		out: { param: Record<string, number>; json: object; query: { limit: number; cursor?: string } };
	}
>;

const capital = <S extends string>(word: S) =>
	`${word[0].toUpperCase()}${word.slice(1)}` as Capitalize<S>;

/**
 * The six operations of a resource that has nothing but its fields, as one router: each write records its event
 * (`<noun>.created`, `.updated`, `.deleted`) and keeps its unique name's fold.
 */
export const crud = <
	R extends Resource<SQLiteTable, { id: number }>,
	New extends z.ZodObject,
	Patch extends z.ZodType,
	One extends z.ZodObject,
	Many extends z.ZodArray,
	const Noun extends EventNoun,
	const Nouns extends string,
>({
	resource,
	tag,
	scope,
	noun: [one, many],
	models: { New, Patch, One, Many },
	removal,
}: {
	/** As src/db/resources.ts declares it. */
	resource: R;
	tag: Tag;
	/** What its writes need. */
	scope: Scope;
	/** What one and several are called, in operation ids, messages and event types: `category`, `categories`. */
	noun: [Noun, Nouns];
	/** What it is answered and written as: one created or replaced, a patch, one, and a page. */
	models: { New: New; Patch: Patch; One: One; Many: Many };
	/** What refuses a deletion, and the error codes it answers with. */
	removal?: { refuse: (id: number) => Refusal[]; errors: ErrorCode[]; description: string };
}) => {
	const { path, itemPath, param }: Pick<R, "path" | "itemPath" | "param"> = resource;
	const id = idParam(param);
	const params = z.object({ [param]: id } as Record<R["param"], typeof id>);
	const item = { path: itemPath, conditional: true, tag } as const;
	// An example deletes what the examples created, never the example resource the others read and replace.
	const created = id.openapi({
		description: `The id of a ${one} from an earlier response: one that \`POST ${path}\` created (the id in its \`Location\`).`,
	});
	const deleted = z.object({ [param]: created } as Record<R["param"], typeof created>);
	const taken: ErrorCode[] = resource.fold?.unique ? [resource.fold.unique] : [];
	const Noun = capital(one);
	// The example replaces the example resource with its own fields: a name no other one holds.
	const { id: _, ...replacement } = exampleOf(One) as Record<string, unknown>;
	const routes = {
		list: apiRoute({
			method: "get",
			path,
			operationId: `list${capital(many)}`,
			tag,
			summary: `List ${many}`,
			description: `${capital(many)} in id order.`,
			request: { query: z.object(pageQuery) },
			responses: { 200: { ...jsonContent(Many, `A page of ${many}.`), headers: linkHeader } },
		}),
		create: apiRoute({
			method: "post",
			path,
			scope,
			operationId: `create${Noun}`,
			idempotent: true,
			tag,
			summary: `Add a ${one}`,
			description: taken.length
				? "Names are unique once folded (compatibility forms and letter case)."
				: `Adds a ${one}.`,
			request: { body: jsonBody(New, `The ${one} to add.`) },
			errors: taken,
			responses: { 201: createdContent(One, `The new ${one}.`) },
		}),
		get: apiRoute({
			...item,
			method: "get",
			operationId: `get${Noun}ById`,
			summary: `Find a ${one} by id`,
			description: `One ${one}.`,
			request: { params },
			errors: ["not_found"],
			responses: { 200: jsonContent(One, `The ${one}.`) },
		}),
		replace: apiRoute({
			...item,
			method: "put",
			scope,
			operationId: `replace${Noun}`,
			summary: `Replace a ${one}`,
			description: "Replaces every field; an optional one it does not carry is removed.",
			request: { params, body: jsonBody(New, `The ${one}'s new state.`, replacement) },
			errors: ["not_found", ...taken],
			responses: { 200: jsonContent(One, `The replaced ${one}.`) },
		}),
		update: apiRoute({
			...item,
			method: "patch",
			scope,
			operationId: `update${Noun}`,
			summary: `Update a ${one}`,
			description: "Changes the given fields (at least one) and keeps the rest.",
			request: { params, body: jsonBody(Patch, "The fields to change.") },
			errors: ["not_found", ...taken],
			responses: { 200: jsonContent(One, `The updated ${one}.`) },
		}),
		delete: apiRoute({
			...item,
			method: "delete",
			scope,
			operationId: `delete${Noun}`,
			summary: `Delete a ${one}`,
			description: removal?.description ?? `Deletes the ${one}.`,
			request: { params: deleted },
			errors: ["not_found", ...(removal?.errors ?? [])],
			responses: { 204: { description: "Deleted." } },
		}),
	};
	const idOf = (c: Given) => c.req.valid("param")[param];
	// The routes above type the router's answers; these handlers, shared by every resource, read them as `Given`.
	const list = async (c: Given) =>
		c.json(await listPage(c, c.req.valid("query"), (page) => resource.page(c.var.db, page), byId));
	const create = async (c: Given) => {
		const created = await createOne(writeContext(c), resource, {
			steps: ({ insert, event }) => [
				insert(c.req.valid("json") as Fields<R>),
				event(`${one}.created`),
			],
		});
		return c.json(withETag(c, created), 201, { Location: resource.pathOf(created.id) });
	};
	const get = async (c: Given) => c.json(withETag(c, await resource.find(c.var.db, idOf(c))), 200);
	const change = async (c: Given) => {
		const changed = await changeOne(writeContext(c), resource, idOf(c), {
			steps: ({ update, event }) => [
				update(c.req.valid("json") as Partial<Fields<R>>),
				event(`${one}.updated`),
			],
		});
		return c.json(withETag(c, changed), 200);
	};
	const remove = async (c: Given) => {
		const id = idOf(c);
		await removeOne(writeContext(c), resource, id, {
			refuse: removal?.refuse(id),
			steps: ({ remove: removed, event }) => [removed(), event(`${one}.deleted`)],
		});
		return c.body(null, 204);
	};
	return createRouter()
		.openapi(routes.list, retrying(list) as never)
		.openapi(routes.create, create as never)
		.openapi(routes.get, retrying(get) as never)
		.openapi(routes.replace, change as never)
		.openapi(routes.update, change as never)
		.openapi(routes.delete, remove as never);
};
