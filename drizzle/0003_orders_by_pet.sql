DROP INDEX `orders_pet_id`;--> statement-breakpoint
CREATE INDEX `orders_pet_id` ON `orders` (`pet_id`,`id`);