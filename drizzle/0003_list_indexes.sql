CREATE INDEX `events_subject_type` ON `events` (`subject`,`type`,`id`);--> statement-breakpoint
CREATE INDEX `orders_pet_id_complete` ON `orders` (`pet_id`,`complete`,`id`);--> statement-breakpoint
CREATE INDEX `pets_category_id_status` ON `pets` (`category_id`,`status`,`id`);