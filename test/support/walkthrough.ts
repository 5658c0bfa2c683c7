import { expect } from "vitest";
import { origin } from "./api";
import type { Document, Operation, Parameter } from "./contract";

/** An operation of the document, where it is. */
export type Located = { template: string; method: string; operation: Operation };

/** A value that comes from an earlier response rather than from its example (its description says so). */
export const fromEarlierResponse = (parameter: Parameter) =>
	/an earlier response/i.test(parameter.description ?? "");

/** Every operation of the document, in document order. */
export const operationsOf = (document: Document): Located[] =>
	Object.entries(document.paths).flatMap(([template, methods]) =>
		Object.entries(methods).map(([method, operation]) => ({
			template,
			method: method.toUpperCase(),
			operation,
		})),
	);

/**
 * Every operation, in the order a client meets them on a fresh seed, derived from the document alone: first each
 * tag's reads, creates and replacements, tag by tag in the document's order; then, tag by tag in the reverse
 * order, each tag's changes (PATCH) and deletions. So each resource is created and read before it is changed or
 * deleted, what depends on another (an order on a pet) goes before what it depends on is deleted, and a change
 * that ends a resource's use (a pet sold) comes once nothing needs it any more.
 */
export const walkthrough = (document: Document): Located[] => {
	const tags = document.tags.map(({ name }) => name);
	const rank = ({ operation }: Located) => tags.indexOf(operation.tags[0]);
	const late = ({ method }: Located) => method === "PATCH" || method === "DELETE";
	const operations = operationsOf(document);
	const first = operations.filter((op) => !late(op)).sort((a, b) => rank(a) - rank(b));
	const last = operations
		.filter(late)
		.sort(
			(a, b) =>
				rank(b) - rank(a) || (a.method === "PATCH" ? -1 : 1) - (b.method === "PATCH" ? -1 : 1),
		);
	return [...first, ...last];
};

/** The `Location`s of the creates of a walk so far, and the ids they give the operations after them. */
export const locations = () => {
	const seen: string[] = [];
	return {
		/** Keeps a response's `Location`, if it has one. */
		keep: (response: Response) => {
			const location = response.headers.get("location");
			if (location) seen.push(location);
		},
		/** The `{name}` of the latest `Location` that fits `template`. */
		idFor: (template: string, name: string) => {
			const pattern = new RegExp(
				`^${template.replace(`{${name}}`, "(\\d+)").replace(/\{\w+\}/g, "\\d+")}$`,
			);
			const match = seen
				.map((location) => pattern.exec(new URL(location, origin).pathname))
				.findLast(Boolean);
			expect(match, `no earlier Location fits ${template}`).toBeTruthy();
			return match?.[1] ?? "";
		},
	};
};

/**
 * The request an example-driven tool sends for an operation: every example as it stands in the document, but for
 * a value marked as coming from an earlier response, which is taken from there (an id) or left out (an optional
 * header).
 */
export const exampleRequest = (
	{ method, template, operation }: Located,
	idFor: (template: string, name: string) => string,
) => {
	const parameters = operation.parameters ?? [];
	const sentValue = (parameter: Parameter) =>
		fromEarlierResponse(parameter) ? idFor(template, parameter.name) : String(parameter.example);
	const sent = (location: Parameter["in"]) =>
		parameters.filter(
			(parameter) =>
				parameter.in === location &&
				parameter.example !== undefined &&
				(location === "path" || !fromEarlierResponse(parameter)),
		);
	const path = sent("path").reduce(
		(path, parameter) => path.replace(`{${parameter.name}}`, sentValue(parameter)),
		template,
	);
	const query = new URLSearchParams(
		sent("query").flatMap((parameter) =>
			[parameter.example].flat().map((value) => [parameter.name, `${value}`]),
		),
	);
	const headers = Object.fromEntries(
		sent("header").map((parameter) => [parameter.name, sentValue(parameter)]),
	);
	const body = operation.requestBody?.content["application/json"].example;
	return {
		path: query.size > 0 ? `${path}?${query}` : path,
		init: {
			method,
			headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
			body: body === undefined ? undefined : JSON.stringify(body),
		},
	};
};

/** The documented success status of an operation: its lowest. */
export const successOf = ({ operation }: Located) =>
	Math.min(...Object.keys(operation.responses).map(Number));

/** Whether the operation needs a credential. */
export const needsCredential = ({ operation }: Located) => (operation.security ?? []).length > 0;
