CREATE TABLE `api_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`scopes` text NOT NULL,
	`start` text NOT NULL,
	`hash` text NOT NULL,
	`previous_hash` text,
	`previous_until` integer,
	`created_at` text NOT NULL,
	`expires_at` text,
	`last_used_at` text,
	`version` integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash` ON `api_keys` (`hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_previous_hash` ON `api_keys` (`previous_hash`);--> statement-breakpoint
ALTER TABLE `webhooks` ADD `owner` integer;--> statement-breakpoint
CREATE INDEX `webhooks_owner` ON `webhooks` (`owner`,`id`);--> statement-breakpoint
-- Written by hand: `Idempotency-Key`s are scoped per client (src/http/idempotency.ts), and every record so far is
-- the root token's.
UPDATE `idempotency_keys` SET `key` = 'root:' || `key`;
