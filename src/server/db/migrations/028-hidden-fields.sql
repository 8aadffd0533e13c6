-- Hidden fields (issue 39, docs/decisions/043-question-kinds.md): the names a form declares, filled from its link's
-- query string (?ref=crm-42), never shown to the customer, kept with each response (null when the link filled none).
alter table forms add column hidden_fields jsonb not null default '[]';
alter table submissions add column hidden jsonb;

-- A change of the declared names is a change of the form: its version goes up, so every copy (the customer side's
-- cache, a page drawn before) is read again.
drop trigger forms_settings_changed on forms;
create trigger forms_settings_changed
  before update of owner_id, title, description, color, border, accepting_responses,
                   opens_at, closes_at, response_limit, closed_message, thank_you_message, redirect_url,
                   hidden_fields on forms
  for each row
  when ((old.owner_id, old.title, old.description, old.color, old.border, old.accepting_responses,
         old.opens_at, old.closes_at, old.response_limit, old.closed_message, old.thank_you_message, old.redirect_url,
         old.hidden_fields)
        is distinct from
        (new.owner_id, new.title, new.description, new.color, new.border, new.accepting_responses,
         new.opens_at, new.closes_at, new.response_limit, new.closed_message, new.thank_you_message, new.redirect_url,
         new.hidden_fields))
  execute function forms_bump_version();
