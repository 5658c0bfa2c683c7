CREATE TABLE `events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`subject` text NOT NULL,
	`created_at` text NOT NULL,
	`data` text NOT NULL,
	`fanned_out_at` text
);
--> statement-breakpoint
CREATE INDEX `events_type` ON `events` (`type`,`id`);--> statement-breakpoint
CREATE INDEX `events_subject` ON `events` (`subject`,`id`);--> statement-breakpoint
CREATE INDEX `events_created_at` ON `events` (`created_at`);--> statement-breakpoint
CREATE INDEX `events_waiting` ON `events` (`fanned_out_at`,`id`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`secret` text NOT NULL,
	`created_at` text NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`last_status` integer,
	`last_attempt_at` text,
	`disabled` integer DEFAULT false NOT NULL,
	`version` integer DEFAULT 1 NOT NULL
);
