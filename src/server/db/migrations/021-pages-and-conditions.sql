-- Pages and conditions (docs/decisions/042-pages-and-conditions.md). A form's content stays one ordered list of
-- rows in form_fields: a page break is a row of kind `page` (its title in `name`, no answer), and any row may carry
-- a condition, a small JSON tree checked by the app before it is stored.
alter table form_fields drop constraint form_fields_kind_check;
alter table form_fields add constraint form_fields_kind_check
  check (kind in ('text', 'select', 'radio', 'check', 'file', 'page'));
alter table form_fields add column condition jsonb;

-- The version of the form's items, which its pages send back with a submit: raised by every change to a row of
-- form_fields (a question, a page break, a condition, the order), and by nothing else, so renaming the form or
-- changing its settings does not make an open page out of date. `version` (005) still counts every change.
alter table forms add column items_version integer not null default 1;

create or replace function form_fields_inserted() returns trigger language plpgsql as $$
begin
  update forms set version = version + 1, items_version = items_version + 1
   where id in (select form_id from new_fields);
  return null;
end $$;

create or replace function form_fields_updated() returns trigger language plpgsql as $$
begin
  update forms set version = version + 1, items_version = items_version + 1
   where id in (select form_id from new_fields union select form_id from old_fields);
  return null;
end $$;

create or replace function form_fields_deleted() returns trigger language plpgsql as $$
begin
  update forms set version = version + 1, items_version = items_version + 1
   where id in (select form_id from old_fields);
  return null;
end $$;

-- The ids of the pages a response went through, and the answers it brought that its form no longer asks (sent from
-- an older version of the form: kept with it rather than refused). Null for responses stored before pages existed.
alter table submissions add column path jsonb;
alter table submissions add column kept_aside jsonb;
