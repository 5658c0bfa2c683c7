-- Names are compared by a key the Worker folds (src/db/name-key.ts), since SQLite's lower() folds ASCII only.
-- SQLite adds a NOT NULL column only with a default: '' is a placeholder that the backfill below replaces,
-- with lower() standing in for the Worker's folding on the rows that exist already.
DROP INDEX `categories_name_unique`;--> statement-breakpoint
ALTER TABLE `categories` ADD `name_key` text NOT NULL DEFAULT '';--> statement-breakpoint
UPDATE `categories` SET `name_key` = lower(`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `categories_name_key_unique` ON `categories` (`name_key`);--> statement-breakpoint
ALTER TABLE `pets` ADD `name_key` text NOT NULL DEFAULT '';--> statement-breakpoint
UPDATE `pets` SET `name_key` = lower(`name`);
