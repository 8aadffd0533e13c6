-- A form's schedule and limits (issue 12 item 4): it takes responses only from opens_at, until closes_at, and up to
-- response_limit of them; closed_message is what its closed link says. thank_you_message and redirect_url are what
-- the customer sees after submitting. Times are instants; the owner's page shows them in FORM_TIMEZONE
-- (docs/decisions/019-form-limits.md).
alter table forms
  add column opens_at timestamptz,
  add column closes_at timestamptz,
  add column response_limit integer check (response_limit between 1 and 1000000),
  add column closed_message text,
  add column thank_you_message text,
  add column redirect_url text;

-- The writer caches forms by version (005): every column a submission is checked against, or answered with, bumps it.
drop trigger forms_settings_changed on forms;
create trigger forms_settings_changed
  before update of owner_id, title, description, color, border, accepting_responses,
                   opens_at, closes_at, response_limit, closed_message, thank_you_message, redirect_url on forms
  for each row
  when ((old.owner_id, old.title, old.description, old.color, old.border, old.accepting_responses,
         old.opens_at, old.closes_at, old.response_limit, old.closed_message, old.thank_you_message, old.redirect_url)
        is distinct from
        (new.owner_id, new.title, new.description, new.color, new.border, new.accepting_responses,
         new.opens_at, new.closes_at, new.response_limit, new.closed_message, new.thank_you_message, new.redirect_url))
  execute function forms_bump_version();
