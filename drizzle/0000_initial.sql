CREATE TABLE `categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`description` text,
	`version` integer DEFAULT 1 NOT NULL,
	CONSTRAINT "categories_name_length" CHECK(length("categories"."name") BETWEEN 1 AND 50),
	CONSTRAINT "categories_description_length" CHECK("categories"."description" IS NULL OR length("categories"."description") <= 500)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `categories_name_key_unique` ON `categories` (`name_key`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`key` text PRIMARY KEY NOT NULL,
	`request_hash` text NOT NULL,
	`body` text NOT NULL,
	`etag` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_at` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `inventory` (
	`pet_id` integer PRIMARY KEY NOT NULL,
	`quantity` integer DEFAULT 0 NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`pet_id`) REFERENCES `pets`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "inventory_quantity_range" CHECK("inventory"."quantity" BETWEEN 0 AND 1000000)
);
--> statement-breakpoint
CREATE TABLE `orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`pet_id` integer NOT NULL,
	`quantity` integer NOT NULL,
	`ship_date` text NOT NULL,
	`complete` integer DEFAULT false NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	CONSTRAINT "orders_quantity_range" CHECK("orders"."quantity" BETWEEN 1 AND 1000)
);
--> statement-breakpoint
CREATE INDEX `orders_pet_id` ON `orders` (`pet_id`,`id`);--> statement-breakpoint
CREATE INDEX `orders_complete` ON `orders` (`complete`,`id`);--> statement-breakpoint
CREATE TABLE `pets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`category_id` integer NOT NULL,
	`status` text DEFAULT 'available' NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "pets_name_length" CHECK(length("pets"."name") BETWEEN 1 AND 100),
	CONSTRAINT "pets_status_valid" CHECK("pets"."status" IN ('available', 'pending', 'sold'))
);
--> statement-breakpoint
CREATE INDEX `pets_category_id` ON `pets` (`category_id`,`id`);--> statement-breakpoint
CREATE INDEX `pets_status` ON `pets` (`status`,`id`);--> statement-breakpoint
-- Written by hand, as drizzle-kit does not model it: the name filter is a substring search, which no B-tree
-- index serves. A trigram index over the folded names (src/db/name-key.ts) finds any substring of three
-- characters or more, in id order. Triggers keep it in step with `pets`, which holds the text (an
-- external-content FTS5 table stores only the index).
CREATE VIRTUAL TABLE `pet_names` USING fts5(`name_key`, content = 'pets', content_rowid = 'id', tokenize = 'trigram case_sensitive 1');--> statement-breakpoint
CREATE TRIGGER `pets_index_name` AFTER INSERT ON `pets` BEGIN
	INSERT INTO `pet_names` (`rowid`, `name_key`) VALUES (new.`id`, new.`name_key`);
END;--> statement-breakpoint
CREATE TRIGGER `pets_unindex_name` AFTER DELETE ON `pets` BEGIN
	INSERT INTO `pet_names` (`pet_names`, `rowid`, `name_key`) VALUES ('delete', old.`id`, old.`name_key`);
END;--> statement-breakpoint
CREATE TRIGGER `pets_reindex_name` AFTER UPDATE OF `name_key` ON `pets` BEGIN
	INSERT INTO `pet_names` (`pet_names`, `rowid`, `name_key`) VALUES ('delete', old.`id`, old.`name_key`);
	INSERT INTO `pet_names` (`rowid`, `name_key`) VALUES (new.`id`, new.`name_key`);
END;
