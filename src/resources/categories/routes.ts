import { createRoute, z } from "@hono/zod-openapi";
import { linkHeader, pageQuery } from "../../http/pagination";
import { errorResponses, jsonBody, jsonContent } from "../../http/responses";
import {
	Categories,
	Category,
	CategoryPatch,
	NewCategory,
} from "../../models/category";
import { idParam } from "../../models/id";

const tags = ["Categories"];
const params = z.object({ categoryId: idParam("categoryId") });
const bodyErrors = [
	"validation_error",
	"malformed_json",
	"unsupported_media_type",
] as const;

export const listCategories = createRoute({
	method: "get",
	path: "/categories",
	operationId: "listCategories",
	tags,
	summary: "List categories",
	description: "Categories in id order.",
	request: { query: z.object(pageQuery) },
	responses: {
		200: {
			...jsonContent(Categories, "A page of categories."),
			headers: linkHeader,
		},
		...errorResponses("validation_error", "internal_error"),
	},
});

export const createCategory = createRoute({
	method: "post",
	path: "/categories",
	operationId: "createCategory",
	tags,
	summary: "Add a category",
	description: "Names are unique, compared case-insensitively.",
	request: { body: jsonBody(NewCategory, "The category to add.") },
	responses: {
		201: {
			...jsonContent(Category, "The new category."),
			headers: {
				Location: {
					description: "Where the new category lives.",
					schema: { type: "string" },
				},
			},
		},
		...errorResponses(...bodyErrors, "category_exists", "internal_error"),
	},
});

export const getCategoryById = createRoute({
	method: "get",
	path: "/categories/{categoryId}",
	operationId: "getCategoryById",
	tags,
	summary: "Find a category by id",
	description: "One category.",
	request: { params },
	responses: {
		200: jsonContent(Category, "The category."),
		...errorResponses("validation_error", "not_found", "internal_error"),
	},
});

export const replaceCategory = createRoute({
	method: "put",
	path: "/categories/{categoryId}",
	operationId: "replaceCategory",
	tags,
	summary: "Replace a category",
	description: "Replaces every field; an omitted description is removed.",
	request: { params, body: jsonBody(NewCategory, "The category's new state.") },
	responses: {
		200: jsonContent(Category, "The replaced category."),
		...errorResponses(
			...bodyErrors,
			"not_found",
			"category_exists",
			"internal_error",
		),
	},
});

export const updateCategory = createRoute({
	method: "patch",
	path: "/categories/{categoryId}",
	operationId: "updateCategory",
	tags,
	summary: "Update a category",
	description: "Changes the given fields (at least one) and keeps the rest.",
	request: { params, body: jsonBody(CategoryPatch, "The fields to change.") },
	responses: {
		200: jsonContent(Category, "The updated category."),
		...errorResponses(
			...bodyErrors,
			"not_found",
			"category_exists",
			"internal_error",
		),
	},
});

export const deleteCategory = createRoute({
	method: "delete",
	path: "/categories/{categoryId}",
	operationId: "deleteCategory",
	tags,
	summary: "Delete a category",
	description: "Only a category without pets can be deleted.",
	request: { params },
	responses: {
		204: { description: "Deleted." },
		...errorResponses(
			"validation_error",
			"not_found",
			"category_in_use",
			"internal_error",
		),
	},
});
