import { createRouter } from "../../http/router";
import * as handlers from "./handlers";
import * as routes from "./routes";

export const categoriesRouter = createRouter()
	.openapi(routes.listCategories, handlers.listCategories)
	.openapi(routes.createCategory, handlers.createCategory)
	.openapi(routes.getCategoryById, handlers.getCategoryById)
	.openapi(routes.replaceCategory, handlers.replaceCategory)
	.openapi(routes.updateCategory, handlers.updateCategory)
	.openapi(routes.deleteCategory, handlers.deleteCategory);
