import { eq } from "drizzle-orm";
import { category } from "../../db/resources";
import { pets } from "../../db/schema";
import { exists } from "../../db/write";
import { Categories, Category, CategoryPatch, NewCategory } from "../../models/category";
import { ApiError } from "../../models/error";
import { crud } from "../crud";

export const categoriesRouter = crud({
	resource: category,
	tag: {
		name: "Categories",
		title: "Pet categories",
		description: "Kinds of pet.",
		icon: "tags",
		parent: "Pets",
	},
	scope: "pets:write",
	noun: ["category", "categories"],
	models: { New: NewCategory, Patch: CategoryPatch, One: Category, Many: Categories },
	removal: {
		description: "Only a category without pets can be deleted.",
		errors: ["category_in_use"],
		refuse: (id) => [
			[
				exists(pets, eq(pets.categoryId, id)),
				() => new ApiError("category_in_use", `Category ${id} still has pets.`),
			],
		],
	},
});
