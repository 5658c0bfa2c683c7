ALTER TABLE `idempotency_keys` ADD `etag` text;--> statement-breakpoint
ALTER TABLE `idempotency_keys` DROP COLUMN `status`;