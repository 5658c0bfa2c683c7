ALTER TABLE `webhooks` ADD `retired_secrets` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `hand_off_after` integer;--> statement-breakpoint
-- Hand-written: a secret still signing after a rotation moves into the list before its columns go.
UPDATE `webhooks` SET `retired_secrets` = json_array(json_object('secret', `previous_secret`, 'expiresAt', `previous_secret_expires_at`)) WHERE `previous_secret` IS NOT NULL;--> statement-breakpoint
ALTER TABLE `webhooks` DROP COLUMN `previous_secret`;--> statement-breakpoint
ALTER TABLE `webhooks` DROP COLUMN `previous_secret_expires_at`;--> statement-breakpoint
CREATE INDEX `events_subject_type` ON `events` (`subject`,`type`,`id`);--> statement-breakpoint
CREATE INDEX `orders_pet_id_complete` ON `orders` (`pet_id`,`complete`,`id`);--> statement-breakpoint
CREATE INDEX `pets_category_id_status` ON `pets` (`category_id`,`status`,`id`);