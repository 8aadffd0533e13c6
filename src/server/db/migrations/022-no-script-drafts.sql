-- The answers of a form page posted without JavaScript, kept for the page the post redirects to (post/redirect/get,
-- docs/decisions/024-form-without-javascript.md): Reload and Back then fetch a page and never send the answers again.
-- The id is a digest of a random 256-bit key that only the customer's browser holds, in the redirected address. A
-- draft lives a day at most (the hourly sweep deletes older ones) and goes when its page's answers are stored.
-- Unlogged, as the rate-limit counters: transient by design, so a crash may drop them (the customer types again) and
-- no backup carries them (backup/tables.ts leaves unlogged tables out).
create unlogged table no_script_drafts (
  id text primary key,
  form_id uuid not null references forms (id) on delete cascade,
  -- The page's idempotency key: every draft of one page goes when that page's response is stored.
  page_token text not null,
  answers jsonb not null,
  -- The messages drawn with the answers: by question, for the whole form, and files to choose again.
  messages jsonb not null,
  step text check (step in ('answers', 'files')),
  created_at timestamptz not null default now()
);
create index no_script_drafts_form_token on no_script_drafts (form_id, page_token);
create index no_script_drafts_created on no_script_drafts (created_at);
