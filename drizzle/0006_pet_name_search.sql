-- The name filter is a substring search, which no B-tree index serves: a trigram index over the folded names
-- (src/db/name-key.ts) finds any substring of three characters or more, in id order. Triggers keep it in step
-- with `pets`, which holds the text (an external-content FTS5 table stores only the index).
CREATE VIRTUAL TABLE `pet_names` USING fts5(`name_key`, content = 'pets', content_rowid = 'id', tokenize = 'trigram case_sensitive 1');--> statement-breakpoint
INSERT INTO `pet_names` (`pet_names`) VALUES ('rebuild');--> statement-breakpoint
CREATE TRIGGER `pets_index_name` AFTER INSERT ON `pets` BEGIN
	INSERT INTO `pet_names` (`rowid`, `name_key`) VALUES (new.`id`, new.`name_key`);
END;--> statement-breakpoint
CREATE TRIGGER `pets_unindex_name` AFTER DELETE ON `pets` BEGIN
	INSERT INTO `pet_names` (`pet_names`, `rowid`, `name_key`) VALUES ('delete', old.`id`, old.`name_key`);
END;--> statement-breakpoint
CREATE TRIGGER `pets_reindex_name` AFTER UPDATE OF `name_key` ON `pets` BEGIN
	INSERT INTO `pet_names` (`pet_names`, `rowid`, `name_key`) VALUES ('delete', old.`id`, old.`name_key`);
	INSERT INTO `pet_names` (`rowid`, `name_key`) VALUES (new.`id`, new.`name_key`);
END;
