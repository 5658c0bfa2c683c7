import { z } from "@hono/zod-openapi";

/** A query parameter over a named enum that may repeat (`?status=a&status=b`); repeats are ignored. */
export const repeatable = <E extends z.ZodEnum>(
	values: E,
	component: string,
	{ name, description, example }: { name: string; description: string; example: z.infer<E> },
) =>
	z
		.union([values, z.array(values)], {
			error: `must be one of ${values.options.map((value) => `"${String(value)}"`).join(", ")}`,
		})
		.transform((value) => [...new Set<z.infer<E>>(Array.isArray(value) ? value : [value])])
		.optional()
		.openapi({
			type: "array",
			items: { $ref: `#/components/schemas/${component}` },
			description,
			param: { name, in: "query", style: "form", explode: true, example: [example] },
		});
