-- Objects that started before their storage had migrations hold these tables already (the store created them
-- with IF NOT EXISTS): so does this migration, which they adopt. Every later one is as drizzle-kit writes it.
CREATE TABLE IF NOT EXISTS `attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`attempt` integer NOT NULL,
	`status` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`error` text,
	`outcome` text NOT NULL,
	`next_attempt_at` integer,
	`attempted_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `attempts_attempted_at` ON `attempts` (`attempted_at`);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `deliveries` (
	`event_id` integer PRIMARY KEY NOT NULL,
	`body` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_at` integer,
	`settled_at` integer
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `deliveries_due` ON `deliveries` (`next_at`) WHERE "deliveries"."next_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `deliveries_settled` ON `deliveries` (`settled_at`) WHERE "deliveries"."settled_at" IS NOT NULL;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `endpoint` (
	`id` integer PRIMARY KEY NOT NULL,
	`webhook_id` integer NOT NULL,
	`url` text NOT NULL,
	`secrets` text NOT NULL,
	`version` integer NOT NULL,
	`disabled` integer DEFAULT false NOT NULL,
	`disable_recorded` integer DEFAULT true NOT NULL,
	`failing_since` integer,
	`failures` integer DEFAULT 0 NOT NULL,
	`last_status` integer,
	`last_attempt_at` integer,
	CONSTRAINT "endpoint_one_row" CHECK("endpoint"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS `replay` (
	`id` integer PRIMARY KEY NOT NULL,
	`after` integer NOT NULL,
	`events` text NOT NULL,
	`since` text NOT NULL,
	CONSTRAINT "replay_one_row" CHECK("replay"."id" = 1)
);
