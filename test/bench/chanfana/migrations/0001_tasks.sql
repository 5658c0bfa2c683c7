-- The template's one table.
CREATE TABLE tasks (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	name TEXT NOT NULL,
	slug TEXT NOT NULL,
	description TEXT NOT NULL,
	completed INTEGER NOT NULL DEFAULT 0,
	due_date TEXT NOT NULL
);
