-- Customer uploads, submissions, the owner's joining-form profile, and server settings (the file-URL signing key).
create table app_settings (
  key text primary key,
  value text not null
);

create table submissions (
  id uuid primary key default gen_random_uuid(),
  form_id uuid not null references forms (id) on delete cascade,
  owner_id uuid not null references accounts (id) on delete cascade,
  -- Millisecond precision, as JavaScript dates carry: page cursors made from it then match rows exactly.
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  -- The form as it was when submitted, so later edits of the form do not change what was answered.
  form_title text not null,
  description text not null,
  color text not null,
  border text not null,
  -- [{ fieldId, kind, name, value }] in the form's question order; value is text, a list of texts, or an upload id.
  answers jsonb not null,
  -- The first identifying answers (name, email, phone), for the owner's list.
  contact text not null default '',
  idempotency_key text
);
create index submissions_form_created on submissions (form_id, created_at desc, id desc);
create index submissions_owner_created on submissions (owner_id, created_at desc, id desc);
create unique index submissions_idempotency on submissions (form_id, idempotency_key) where idempotency_key is not null;

create table uploads (
  id uuid primary key default gen_random_uuid(),
  -- The form the customer was filling in; null for an owner's own profile documents.
  form_id uuid references forms (id) on delete cascade,
  owner_id uuid references accounts (id) on delete cascade,
  storage_key text not null unique,
  original_name text not null,
  mime_type text not null,
  size_bytes bigint not null,
  -- SHA-256 of the deleteId handed to the uploader: proof that a later submission or delete comes from them.
  secret_hash text not null unique,
  created_at timestamptz not null default now(),
  submission_id uuid references submissions (id) on delete cascade,
  claimed_at timestamptz
);
create index uploads_unclaimed on uploads (created_at) where claimed_at is null;
create index uploads_submission on uploads (submission_id);
create index uploads_form on uploads (form_id);

create table owner_profiles (
  account_id uuid primary key references accounts (id) on delete cascade,
  details jsonb not null,
  pan_upload_id uuid references uploads (id) on delete set null,
  aadhar_upload_id uuid references uploads (id) on delete set null,
  updated_at timestamptz not null default now()
);

-- Kept in the submission's transaction so the owner's Received tab reads one row per form, whatever the count.
alter table forms add column response_count integer not null default 0;
alter table forms add column latest_response_at timestamptz;
