CREATE TABLE `categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text,
	CONSTRAINT "categories_name_length" CHECK(length("categories"."name") BETWEEN 1 AND 50),
	CONSTRAINT "categories_description_length" CHECK("categories"."description" IS NULL OR length("categories"."description") <= 500)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `categories_name_unique` ON `categories` (lower("name"));--> statement-breakpoint
CREATE TABLE `inventory` (
	`pet_id` integer PRIMARY KEY NOT NULL,
	`quantity` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`pet_id`) REFERENCES `pets`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "inventory_quantity_range" CHECK("inventory"."quantity" BETWEEN 0 AND 1000000)
);
--> statement-breakpoint
CREATE TABLE `pets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`category_id` integer NOT NULL,
	`status` text DEFAULT 'available' NOT NULL,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "pets_name_length" CHECK(length("pets"."name") BETWEEN 1 AND 100),
	CONSTRAINT "pets_status_valid" CHECK("pets"."status" IN ('available', 'pending', 'sold'))
);
--> statement-breakpoint
CREATE INDEX `pets_category_id` ON `pets` (`category_id`,`id`);--> statement-breakpoint
CREATE INDEX `pets_status` ON `pets` (`status`,`id`);