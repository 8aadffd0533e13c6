-- Forms and their fields. One ordered list of fields across kinds (position), which the original client's per-kind arrays lose.
create table forms (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null references accounts (id) on delete cascade,
  title text not null,
  description text not null default '',
  color text not null,
  border text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index forms_owner_created on forms (owner_id, created_at desc);

create table form_fields (
  id uuid primary key default gen_random_uuid(),
  form_id uuid not null references forms (id) on delete cascade,
  position integer not null,
  kind text not null check (kind in ('text', 'select', 'radio', 'check', 'file')),
  name text not null,
  text_type text check (text_type in ('text', 'email', 'password', 'date', 'tel', 'textarea')),
  required boolean not null default false,
  -- [{ "_id": uuid, "value": text }] for select, radio and check; [] otherwise.
  options jsonb not null default '[]'
);
create index form_fields_form_position on form_fields (form_id, position);
