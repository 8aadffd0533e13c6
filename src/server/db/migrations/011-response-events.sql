-- Owner notifications and respondent copies (docs/decisions/021-response-notifications.md).
-- Forms made before this release keep quiet until their owner turns notifications on: an upgrade must not start
-- mailing the owner of a busy form unasked. New forms notify by default.
alter table forms add column notify_owner boolean not null default false;
alter table forms alter column notify_owner set default true;
alter table forms add column respondent_copy boolean not null default false;

-- Filled by the statement that inserts a batch of submissions (one row per form per batch), so a committed
-- submission is never without its notification, at no extra round trip. The notifier claims rows with
-- `for update skip locked`, turns them into outbox mail in the same transaction, and marks them done.
create table response_events (
  id bigserial primary key,
  form_id uuid not null references forms (id) on delete cascade,
  submission_ids uuid[] not null,
  created_at timestamptz not null default now(),
  -- Not claimed before this: set to the end of the form's folding window when the owner was mailed recently.
  not_before timestamptz not null default now(),
  copies_sent boolean not null default false,
  done_at timestamptz
);
create index response_events_due on response_events (not_before) where done_at is null;

-- Per form: when the owner was last mailed (the folding window), and the respondent copies sent this hour.
create table notification_windows (
  form_id uuid primary key references forms (id) on delete cascade,
  owner_mailed_at timestamptz,
  copies_hour timestamptz,
  copies_in_hour integer not null default 0
);
