-- Questions deleted from a form that already had responses: their id and last name, so the CSV export keeps a
-- column for the answers they received instead of silently dropping them.
alter table forms add column retired_fields jsonb not null default '[]';
