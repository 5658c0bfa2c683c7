import { z } from "@hono/zod-openapi";
import { category } from "../../db/resources";
import { linkHeader, pageQuery } from "../../http/pagination";
import { createdContent, jsonBody, jsonContent } from "../../http/responses";
import { apiRoute, type Tag } from "../../http/route";
import { Categories, Category, CategoryPatch, NewCategory } from "../../models/category";
import { idParam } from "../../models/id";

const tag: Tag = {
	name: "Categories",
	title: "Pet categories",
	description: "Kinds of pet.",
	icon: "tags",
	parent: "Pets",
};
const params = z.object({ categoryId: idParam("categoryId") });

export const listCategories = apiRoute({
	method: "get",
	path: category.path,
	operationId: "listCategories",
	tag,
	summary: "List categories",
	description: "Categories in id order.",
	request: { query: z.object(pageQuery) },
	responses: { 200: { ...jsonContent(Categories, "A page of categories."), headers: linkHeader } },
});

export const createCategory = apiRoute({
	method: "post",
	path: category.path,
	auth: "bearer",
	operationId: "createCategory",
	idempotent: true,
	tag,
	summary: "Add a category",
	description: "Names are unique once folded (compatibility forms and letter case).",
	request: { body: jsonBody(NewCategory, "The category to add.") },
	errors: ["category_exists"],
	responses: { 201: createdContent(Category, "The new category.") },
});

export const getCategoryById = apiRoute({
	method: "get",
	path: category.itemPath,
	conditional: true,
	operationId: "getCategoryById",
	tag,
	summary: "Find a category by id",
	description: "One category.",
	request: { params },
	errors: ["not_found"],
	responses: { 200: jsonContent(Category, "The category.") },
});

export const replaceCategory = apiRoute({
	method: "put",
	path: category.itemPath,
	conditional: true,
	auth: "bearer",
	operationId: "replaceCategory",
	tag,
	summary: "Replace a category",
	description: "Replaces every field; an omitted description is removed.",
	request: {
		params,
		body: jsonBody(NewCategory, "The category's new state.", {
			name: "Dog",
			description: "Loyal, playful companions.",
		}),
	},
	errors: ["not_found", "category_exists"],
	responses: { 200: jsonContent(Category, "The replaced category.") },
});

export const updateCategory = apiRoute({
	method: "patch",
	path: category.itemPath,
	conditional: true,
	auth: "bearer",
	operationId: "updateCategory",
	tag,
	summary: "Update a category",
	description: "Changes the given fields (at least one) and keeps the rest.",
	request: { params, body: jsonBody(CategoryPatch, "The fields to change.") },
	errors: ["not_found", "category_exists"],
	responses: { 200: jsonContent(Category, "The updated category.") },
});

export const deleteCategory = apiRoute({
	method: "delete",
	path: category.itemPath,
	conditional: true,
	auth: "bearer",
	operationId: "deleteCategory",
	tag,
	summary: "Delete a category",
	description: "Only a category without pets can be deleted.",
	request: {
		params: z.object({
			categoryId: idParam("categoryId").openapi({
				description:
					"A category without pets, from an earlier response: every seeded category has pets, so one that `POST /categories` created (the id in its `Location`).",
			}),
		}),
	},
	errors: ["not_found", "category_in_use"],
	responses: { 204: { description: "Deleted." } },
});
