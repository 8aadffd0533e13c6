-- Webhooks, off the customer's path (docs/decisions/023-webhooks.md, addendum of 2026-11-25): the statement that
-- inserts a batch of responses writes one row per form of the batch that has webhooks, with the batch's ids, instead
-- of a delivery row per (response, webhook). The sender turns each row into those deliveries in one statement of its
-- own, which deletes the row: a committed response still always reaches its deliveries, exactly once.
create table webhook_batches (
  id bigserial primary key,
  form_id uuid not null references forms (id) on delete cascade,
  submission_ids uuid[] not null,
  created_at timestamptz not null default now()
);
