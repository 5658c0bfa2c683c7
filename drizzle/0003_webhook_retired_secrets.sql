ALTER TABLE `webhooks` ADD `retired_secrets` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
-- Hand-written: a secret still signing after a rotation moves into the list before its columns go.
UPDATE `webhooks` SET `retired_secrets` = json_array(json_object('secret', `previous_secret`, 'expiresAt', `previous_secret_expires_at`)) WHERE `previous_secret` IS NOT NULL;--> statement-breakpoint
ALTER TABLE `webhooks` DROP COLUMN `previous_secret`;--> statement-breakpoint
ALTER TABLE `webhooks` DROP COLUMN `previous_secret_expires_at`;
