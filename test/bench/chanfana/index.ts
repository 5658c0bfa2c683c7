/**
 * The reference of `npm run bench`: Cloudflare's chanfana OpenAPI template (cloudflare/templates,
 * chanfana-openapi-template) as it ships, written out here in one file: Hono + chanfana + zod, a tasks CRUD
 * over D1 through chanfana's D1 endpoints, one plain endpoint and the template's error handler.
 */
import {
	ApiException,
	contentJson,
	D1CreateEndpoint,
	D1DeleteEndpoint,
	D1ListEndpoint,
	D1ReadEndpoint,
	D1UpdateEndpoint,
	fromHono,
	OpenAPIRoute,
} from "chanfana";
import { Hono } from "hono";
import { z } from "zod";

const task = z.object({
	id: z.int(),
	name: z.string(),
	slug: z.string(),
	description: z.string(),
	completed: z.boolean(),
	due_date: z.iso.datetime(),
});
const model = {
	tableName: "tasks",
	primaryKeys: ["id"],
	schema: task,
	serializer: (row: Partial<Record<string, string | number | boolean>>) => ({
		...row,
		completed: Boolean(row.completed),
	}),
};
const fields = task.omit({ id: true });

class TaskList extends D1ListEndpoint {
	_meta = { model };
	searchFields = ["name", "slug", "description"];
	defaultOrderBy = "id DESC";
}
class TaskCreate extends D1CreateEndpoint {
	_meta = { model, fields };
}
class TaskRead extends D1ReadEndpoint {
	_meta = { model };
}
class TaskUpdate extends D1UpdateEndpoint {
	// The template passes `fields`, from which chanfana 3.4 omits `id` and current zod refuses to: the same body.
	_meta = { model, fields: task };
}
class TaskDelete extends D1DeleteEndpoint {
	_meta = { model };
}

class Echo extends OpenAPIRoute {
	schema = {
		request: {
			params: z.object({ slug: z.string() }),
			body: contentJson(z.object({ name: z.string() })),
		},
		responses: {
			200: {
				description: "The slug and the name.",
				...contentJson(z.object({ slug: z.string(), name: z.string() })),
			},
		},
	};

	async handle() {
		const { params, body } = await this.getValidatedData<typeof this.schema>();
		return { slug: params.slug, name: body.name };
	}
}

const app = new Hono<{ Bindings: Env }>();
app.onError((error, c) =>
	error instanceof ApiException
		? c.json({ success: false, errors: error.buildResponse() }, 400)
		: c.json({ success: false, errors: [{ code: 7000 }] }, 500),
);

const openapi = fromHono(app, {
	docs_url: "/",
	schema: { info: { title: "Tasks", version: "1.0.0" } },
});
const tasks = fromHono(new Hono());
tasks.get("/", TaskList);
tasks.post("/", TaskCreate);
tasks.get("/:id", TaskRead);
tasks.put("/:id", TaskUpdate);
tasks.delete("/:id", TaskDelete);
openapi.route("/tasks", tasks);
openapi.post("/echo/:slug", Echo);

export default app;
