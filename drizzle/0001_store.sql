CREATE TABLE `idempotency_keys` (
	`key` text PRIMARY KEY NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_at` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`pet_id` integer NOT NULL,
	`quantity` integer NOT NULL,
	`ship_date` text NOT NULL,
	`complete` integer DEFAULT false NOT NULL,
	CONSTRAINT "orders_quantity_range" CHECK("orders"."quantity" BETWEEN 1 AND 1000)
);
--> statement-breakpoint
CREATE INDEX `orders_pet_id` ON `orders` (`pet_id`,`complete`,`id`);--> statement-breakpoint
CREATE INDEX `orders_complete` ON `orders` (`complete`,`id`);