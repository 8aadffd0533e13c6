-- A form's version goes up whenever anything a submission is checked against changes: the form's own settings or
-- any of its fields. The submission writer keeps forms in memory and inserts only where the version it checked
-- against is still the stored one (docs/decisions/013-group-commit.md).
alter table forms add column version integer not null default 1;

create function forms_bump_version() returns trigger language plpgsql as $$
begin
  new.version := old.version + 1;
  return new;
end $$;

create trigger forms_settings_changed
  before update of owner_id, title, description, color, border, accepting_responses on forms
  for each row
  when ((old.owner_id, old.title, old.description, old.color, old.border, old.accepting_responses)
        is distinct from (new.owner_id, new.title, new.description, new.color, new.border, new.accepting_responses))
  execute function forms_bump_version();

create function form_fields_inserted() returns trigger language plpgsql as $$
begin
  update forms set version = version + 1 where id in (select form_id from new_fields);
  return null;
end $$;

create function form_fields_updated() returns trigger language plpgsql as $$
begin
  update forms set version = version + 1
   where id in (select form_id from new_fields union select form_id from old_fields);
  return null;
end $$;

create function form_fields_deleted() returns trigger language plpgsql as $$
begin
  update forms set version = version + 1 where id in (select form_id from old_fields);
  return null;
end $$;

create trigger form_fields_inserted after insert on form_fields
  referencing new table as new_fields for each statement execute function form_fields_inserted();
create trigger form_fields_updated after update on form_fields
  referencing old table as old_fields new table as new_fields for each statement execute function form_fields_updated();
create trigger form_fields_deleted after delete on form_fields
  referencing old table as old_fields for each statement execute function form_fields_deleted();
