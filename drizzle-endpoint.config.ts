import { defineConfig } from "drizzle-kit";

// The storage of each webhook's Durable Object; the D1 database's is drizzle.config.ts.
export default defineConfig({
	dialect: "sqlite",
	driver: "durable-sqlite",
	schema: "./src/webhooks/endpoint/schema.ts",
	out: "./drizzle/webhook-endpoint",
});
