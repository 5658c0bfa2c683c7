ALTER TABLE `webhooks` ADD `previous_secret` text;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `previous_secret_expires_at` integer;--> statement-breakpoint
ALTER TABLE `webhooks` DROP COLUMN `failures`;--> statement-breakpoint
ALTER TABLE `webhooks` DROP COLUMN `last_status`;--> statement-breakpoint
ALTER TABLE `webhooks` DROP COLUMN `last_attempt_at`;