-- A question may carry a help text under its title, for what the title alone cannot say (issue 39): null when it has
-- none, so every existing question and every form made by the product's calls reads as before.
alter table form_fields add column help text;
