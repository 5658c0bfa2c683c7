import { eq, exists } from "drizzle-orm";
import { category } from "../../db/resources";
import { pets } from "../../db/schema";
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
		inUse: (db, id) => exists(db.select({ id: pets.id }).from(pets).where(eq(pets.categoryId, id))),
		refusal: (id) => new ApiError("category_in_use", `Category ${id} still has pets.`),
	},
});
