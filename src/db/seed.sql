-- Sample data for local development only (applied by `npm run dev`, never by production migrations).
-- Each statement fills its table only while it is empty, so a second start neither fails nor duplicates.
-- The names are ASCII, so lower() folds them as the Worker does (src/models/name-key.ts).
INSERT INTO categories (id, name, name_key, description)
SELECT column1, column2, lower(column2), column3 FROM (VALUES
  (1, 'Dog', 'Loyal companions.'),
  (2, 'Cat', 'Independent spirits.'),
  (3, 'Rabbit', 'Quiet and curious.'))
WHERE NOT EXISTS (SELECT 1 FROM categories);

INSERT INTO pets (id, name, name_key, category_id, status)
SELECT v.column1, v.column2, lower(v.column2), v.column3, v.column4 FROM (VALUES
  (1, 'Rex', 1, 'available'),
  (2, 'Bella', 1, 'available'),
  (3, 'Milo', 2, 'available'),
  (4, 'Luna', 2, 'pending'),
  (5, 'Thumper', 3, 'available'),
  (6, 'Oreo', 3, 'sold')) AS v
JOIN categories ON categories.id = v.column3
WHERE NOT EXISTS (SELECT 1 FROM pets);

INSERT INTO inventory (pet_id, quantity)
SELECT v.column1, v.column2 FROM (VALUES (1, 5), (2, 3), (3, 8), (4, 2), (5, 12), (6, 0)) AS v
JOIN pets ON pets.id = v.column1
WHERE NOT EXISTS (SELECT 1 FROM inventory);
