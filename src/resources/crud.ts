import { z } from "@hono/zod-openapi";
import { and, eq, exists, getTableColumns, ne, not, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Context } from "hono";
import type { Db } from "../db/client";
import type { Resource } from "../db/resource";
import { eventRow, idempotencyRecord, insertWhere, runWrite } from "../db/write";
import type { AppEnv } from "../env";
import { withETag } from "../http/conditional";
import { createdHeaders } from "../http/idempotency";
import { linkHeader, pageQuery } from "../http/pagination";
import { createdContent, exampleOf, jsonBody, jsonContent } from "../http/responses";
import { apiRoute, type Tag } from "../http/route";
import { createRouter, retrying } from "../http/router";
import { writeContext } from "../http/write-context";
import { ApiError } from "../models/error";
import type { ErrorCode } from "../models/error-codes";
import type { EventType } from "../models/event-types";
import { byId, idParam } from "../models/id";
import { nameKey } from "../models/name-key";
import type { Scope } from "../models/scopes";
import { readPage } from "./reads";

/** A noun whose `.created`, `.updated` and `.deleted` events src/models/event-types.ts declares. */
type EventNoun = {
	[T in EventType]: T extends `${infer N}.created`
		? `${N}.updated` | `${N}.deleted` extends EventType
			? N
			: never
		: never;
}[EventType];

/** A request validated against one of the routes below. */
type Given = Context<AppEnv, string, { out: { param: Record<string, number>; json: object } }>;

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
	/** What refuses a deletion (while `inUse` holds, with `refusal`), and the error codes it answers with. */
	removal?: {
		inUse: (db: Db, id: number) => SQL;
		refusal: (id: number) => ApiError;
		errors: ErrorCode[];
		description: string;
	};
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
	const table: SQLiteTable = resource.table;
	/** Why a write that gave `name` changed nothing, once found and current: its name is `taken`, or nothing says. */
	const refusal = (taken: unknown, name?: string, id?: number) => {
		const code = resource.fold?.unique;
		if (!taken || !code) return resource.unexplained(id);
		return new ApiError(code, `A ${one} named "${name}" already exists.`);
	};
	/** Holds when another resource than `id` holds the fold of `name`, where folded names are unique. */
	const nameTaken = (db: Db, name: string | undefined, id?: number) => {
		const fold = resource.fold?.unique && getTableColumns(table)[resource.fold.column];
		if (!fold || name === undefined) return sql`0`;
		const other = id === undefined ? undefined : ne(resource.key, id);
		return exists(
			db
				.select({ one: sql`1` })
				.from(table)
				.where(and(eq(fold, nameKey(name)), other)),
		);
	};
	// The routes above type the router's answers; these handlers, shared by every resource, read them as `Given`.
	const create = async (c: Given) => {
		const ctx = writeContext(c);
		const { db } = ctx;
		const body = c.req.valid("json") as { name?: string };
		const keyed = idempotencyRecord(ctx, resource);
		const probe = await runWrite(db, {
			before: keyed.forget,
			write: insertWhere(db, table, resource.folded(body), keyed.unused),
			after: [eventRow(ctx, `${one}.created`, resource, resource.newest), ...keyed.record],
			probe: {
				created: resource.answerAt(db, resource.newest),
				stored: keyed.stored,
				taken: nameTaken(db, body.name),
			},
		});
		const replayed = !probe.written && probe.stored !== null;
		const created = probe.written ? probe.created : probe.stored && keyed.replay(probe.stored);
		if (created) {
			return c.json(
				withETag(c, created),
				201,
				createdHeaders(resource.pathOf(created.id), replayed),
			);
		}
		throw refusal(probe.taken, body.name);
	};
	const get = async (c: Given) => c.json(withETag(c, await resource.find(c.var.db, idOf(c))), 200);
	/** A `PUT` (`clear`) replaces every field: an optional one it does not carry is cleared. */
	const change = (clear: boolean) => async (c: Given) => {
		const ctx = writeContext(c);
		const { db, ifMatch } = ctx;
		const id = idOf(c);
		const body = { ...(clear && resource.cleared), ...c.req.valid("json") } as { name?: string };
		const taken = nameTaken(db, body.name, id);
		const probe = await runWrite(db, {
			write: db
				.update(table)
				.set({ ...resource.folded(body), version: sql`${resource.version} + 1` })
				.where(and(eq(resource.key, id), resource.matches(ifMatch), not(taken))),
			after: [eventRow(ctx, `${one}.updated`, resource, id)],
			probe: { changed: resource.answerAt(db, id), ...resource.state(db, id, ifMatch), taken },
		});
		if (probe.written && probe.changed) return c.json(withETag(c, probe.changed), 200);
		resource.mustBeCurrent(id, probe);
		throw refusal(probe.taken, body.name, id);
	};
	const remove = async (c: Given) => {
		const ctx = writeContext(c);
		const { db, ifMatch } = ctx;
		const id = idOf(c);
		const inUse = removal ? removal.inUse(db, id) : sql`0`;
		const probe = await runWrite(db, {
			write: db
				.delete(table)
				.where(and(eq(resource.key, id), resource.matches(ifMatch), not(inUse))),
			after: [eventRow(ctx, `${one}.deleted`, resource.gone(id))],
			probe: { ...resource.state(db, id, ifMatch), inUse },
		});
		if (probe.written) return c.body(null, 204);
		resource.mustBeCurrent(id, probe);
		throw probe.inUse && removal ? removal.refusal(id) : resource.unexplained(id);
	};
	return createRouter()
		.openapi(routes.list, readPage(resource.page, byId))
		.openapi(routes.create, create as never)
		.openapi(routes.get, retrying(get) as never)
		.openapi(routes.replace, change(true) as never)
		.openapi(routes.update, change(false) as never)
		.openapi(routes.delete, remove as never);
};
