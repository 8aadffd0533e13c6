-- Webhooks: per form, URLs that each new response is POSTed to, signed with the webhook's own secret
-- (docs/decisions/023-webhooks.md).
create table webhooks (
  id uuid primary key,
  form_id uuid not null references forms (id) on delete cascade,
  url text not null,
  -- Shown to the owner once, when the webhook is added; kept to sign each delivery (an HMAC key, not a password).
  secret text not null,
  created_at timestamptz not null default now()
);
create index webhooks_form on webhooks (form_id);

-- One durable job per (submission, webhook), written by the statement that inserts the submissions, so a committed
-- response is never without its deliveries. The payload is built at send time from the stored submission.
create table webhook_deliveries (
  id bigserial primary key,
  webhook_id uuid not null references webhooks (id) on delete cascade,
  submission_id uuid not null references submissions (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  created_at timestamptz not null default now()
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_of_webhook on webhook_deliveries (webhook_id, id desc);

-- Every attempt: when, the receiver's status (null when none came back), how long it took, and why it failed.
create table webhook_attempts (
  id bigserial primary key,
  delivery_id bigint not null references webhook_deliveries (id) on delete cascade,
  at timestamptz not null default now(),
  status_code integer,
  duration_ms integer not null,
  error text
);
create index webhook_attempts_of_delivery on webhook_attempts (delivery_id);
