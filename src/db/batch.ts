import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "./client";
import {
	bind,
	type Preparable,
	type Rendered,
	render,
	renderer,
	type Slot,
	slot,
	type Values,
} from "./prepared";

/** One statement of a write's batch. */
type Statement = BatchItem<"sqlite"> & Preparable;

/** What awaiting the statement answers, which is also its result in a batch. */
type ResultOf<S extends Statement> = S["_"]["result"];

/**
 * A link of a {@link chain}: a statement, or one built from the condition that the link before it changed a row;
 * `undefined` leaves it out.
 */
type Link = Statement | ((changed: SQL) => Statement) | undefined;
type Built<L extends Link> = L extends (changed: SQL) => infer S ? S : L;

/**
 * Statements that SQLite ties each to the one right before it: a link built from `changed` runs its change only
 * when the previous link changed a row (`changes()`, which names whichever statement ran last). A chain is one
 * step of a {@link write}, so no other statement can run between its links.
 */
export class Chain<L extends Record<string, Link>> {
	readonly statements: { [K in keyof L]: Built<L[K]> };

	constructor(links: L) {
		this.statements = Object.fromEntries(
			Object.entries(links)
				.filter(([, link]) => link !== undefined)
				.map(([name, link]) => [
					name,
					typeof link === "function" ? link(sql`changes() = 1`) : link,
				]),
		) as { [K in keyof L]: Built<L[K]> };
	}
}

/** Links run in the order they are written; see {@link Chain}. */
export const chain = <L extends Record<string, Link>>(links: L) =>
	new Chain(links);

/** A named step of a write: one statement, or a chain of them; `undefined` leaves the step out. */
export type Step = Statement | Chain<Record<string, Link>> | undefined;

type StepResult<S extends Step> =
	S extends Chain<infer L>
		? {
				[K in keyof L]: Built<L[K]> extends Statement
					? ResultOf<Built<L[K]>>
					: undefined;
			}
		: S extends Statement
			? ResultOf<S>
			: undefined;

type Answer<S extends Record<string, Step>> = {
	[K in keyof S]: StepResult<S[K]>;
};

/** Each statement of `steps` with its step's name, and its link's name when the step is a chain. */
const named = (steps: Record<string, Step>) => {
	const statements: { name: string; link?: string; statement: Statement }[] =
		[];
	for (const [name, step] of Object.entries(steps)) {
		if (step instanceof Chain) {
			for (const [link, statement] of Object.entries(step.statements)) {
				statements.push({ name, link, statement: statement as Statement });
			}
		} else if (step !== undefined) statements.push({ name, statement: step });
	}
	return statements;
};

/** The batch's results by the names of the statements that produced them. */
const byName = <S extends Record<string, Step>>(
	statements: { name: string; link?: string }[],
	results: unknown[],
) => {
	const answer: Record<string, unknown> = {};
	statements.forEach(({ name, link }, index) => {
		if (link === undefined) answer[name] = results[index];
		else answer[name] = { ...(answer[name] as object), [link]: results[index] };
	});
	return answer as Answer<S>;
};

/**
 * Runs a write's named steps, in the order they are written, as one atomic D1 batch (one round trip), and
 * answers each step's result by its name.
 */
export const write = async <S extends Record<string, Step>>(
	db: Db,
	steps: S,
): Promise<Answer<S>> => {
	const statements = named(steps);
	const [first, ...rest] = statements.map(({ statement }) => statement);
	return byName<S>(statements, await db.batch([first, ...rest]));
};

/**
 * A {@link write} whose statements are the same for every request of one `shape` (such as: with or without an
 * idempotency key): `build` runs once per isolate and shape, with placeholders for the values of `V`, and each
 * request binds its values to the statements rendered then (see src/db/prepared.ts).
 */
export const preparedWrite = <
	V extends Values = Record<never, never>,
	Shape extends string = never,
	S extends Record<string, Step> = Record<string, Step>,
>(
	build: (db: Db, $: Slot<V>, shape: Shape) => S,
) => {
	const shapes = new Map<
		Shape,
		(Rendered & { name: string; link?: string })[]
	>();
	return async (
		db: Db,
		shape: NoInfer<Shape>,
		values: NoInfer<V>,
	): Promise<Answer<S>> => {
		let statements = shapes.get(shape);
		if (statements === undefined) {
			statements = named(build(renderer, slot<V>(), shape)).map(
				({ name, link, statement }) => ({ name, link, ...render(statement) }),
			);
			shapes.set(shape, statements);
		}
		const results = await db.$client.batch(
			statements.map((statement) => bind(db, statement, values)),
		);
		return byName<S>(
			statements,
			results.map((result, index) => statements[index].mapResult(result, true)),
		);
	};
};
