import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "./client";

/** One statement of a write's batch. */
type Statement = BatchItem<"sqlite">;

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
type Step = Statement | Chain<Record<string, Link>> | undefined;

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

/**
 * Runs a write's named steps, in the order they are written, as one atomic D1 batch (one round trip), and
 * answers each step's result by its name.
 */
export const write = async <S extends Record<string, Step>>(
	db: Db,
	steps: S,
): Promise<{ [K in keyof S]: StepResult<S[K]> }> => {
	// Each statement with its step's name, and its link's name when the step is a chain.
	const named: { name: string; link?: string; statement: Statement }[] = [];
	for (const [name, step] of Object.entries(steps)) {
		if (step instanceof Chain) {
			for (const [link, statement] of Object.entries(step.statements)) {
				named.push({ name, link, statement: statement as Statement });
			}
		} else if (step !== undefined) named.push({ name, statement: step });
	}
	const [first, ...rest] = named.map(({ statement }) => statement);
	const results: unknown[] = await db.batch([first, ...rest]);
	const answer: Record<string, unknown> = {};
	named.forEach(({ name, link }, index) => {
		if (link === undefined) answer[name] = results[index];
		else answer[name] = { ...(answer[name] as object), [link]: results[index] };
	});
	return answer as { [K in keyof S]: StepResult<S[K]> };
};
