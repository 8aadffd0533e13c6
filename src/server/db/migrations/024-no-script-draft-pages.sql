-- A form with page breaks drawn without JavaScript goes one page at a time (docs/decisions/024-form-without-
-- javascript.md): its draft keeps the page the customer is on and the files chosen on earlier pages, as uploads the
-- final submit claims as the JSON submit claims them, so a file is not chosen again on every page.
alter table no_script_drafts
  add column page text,
  add column files jsonb not null default '{}'::jsonb;
