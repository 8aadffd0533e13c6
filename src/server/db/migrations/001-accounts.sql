-- Accounts, sessions, the one-time secrets they use, and the mail outbox that carries those secrets.
create table accounts (
  id uuid primary key default gen_random_uuid(),
  full_name text not null,
  email text not null unique,
  password_hash text not null,
  email_verified_at timestamptz,
  created_at timestamptz not null default now()
);

-- Only a SHA-256 of each secret is stored: a copy of the database does not let anyone log in or reset a password.
create table sessions (
  token_hash text primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index sessions_account_id on sessions (account_id);

create table email_verifications (
  token_hash text primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index email_verifications_account_id on email_verifications (account_id);

create table password_reset_codes (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts (id) on delete cascade,
  code_hash text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  wrong_tries integer not null default 0,
  used_at timestamptz
);
create index password_reset_codes_account_id on password_reset_codes (account_id);

create table mail_outbox (
  id uuid primary key default gen_random_uuid(),
  to_address text not null,
  subject text not null,
  text_body text not null,
  html_body text,
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default now()
);
create index mail_outbox_pending on mail_outbox (next_attempt_at) where sent_at is null;
