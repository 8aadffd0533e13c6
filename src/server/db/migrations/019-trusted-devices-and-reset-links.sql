-- Browsers an owner has logged in from: a login that shows one is not held back by someone else's wrong guesses.
-- Only a SHA-256 of each device secret is stored.
create table trusted_devices (
  token_hash text primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index trusted_devices_account_id on trusted_devices (account_id);

-- Each reset mail carries a link besides its code: the SHA-256 of the link's secret, on the code's row.
alter table password_reset_codes add column link_hash text;
create unique index password_reset_codes_link_hash on password_reset_codes (link_hash);
-- A mail sent past the per-email count of codes carries only its link.
alter table password_reset_codes alter column code_hash drop not null;
