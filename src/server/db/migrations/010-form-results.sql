-- The owner's Results view (issue 12) reads counters, never the submissions: the statement that inserts a batch of
-- submissions adds the batch to them (src/server/submissions/repository.ts), and the public form's opens are added
-- to the daily row (src/server/results/views.ts). docs/decisions/020-results.md.

-- How many responses chose each option of a choice question. Keyed by the option's text as answered, so an option
-- renamed or removed later keeps its count under the old text ("no longer offered").
create table form_option_counts (
  form_id uuid not null references forms (id) on delete cascade,
  field_id text not null,
  option text not null,
  count integer not null,
  primary key (form_id, field_id, option)
);

-- How many responses answered each question (for a file question: the responses with a file).
create table form_field_counts (
  form_id uuid not null references forms (id) on delete cascade,
  field_id text not null,
  responses integer not null,
  primary key (form_id, field_id)
);

-- Responses and public-form opens per day, the day in the server's FORM_TIMEZONE. No visitor is identified.
create table form_daily_counts (
  form_id uuid not null references forms (id) on delete cascade,
  day date not null,
  responses integer not null default 0,
  views integer not null default 0,
  primary key (form_id, day)
);

-- Recounts one form's responses from its stored submissions (views are kept: only opens make them). The migration
-- backfills with it; the bench uses it after seeding rows in SQL.
create function rebuild_form_results(p_form uuid, p_time_zone text) returns void language plpgsql as $$
begin
  delete from form_option_counts where form_id = p_form;
  delete from form_field_counts where form_id = p_form;
  update form_daily_counts set responses = 0 where form_id = p_form;
  insert into form_field_counts (form_id, field_id, responses)
  select s.form_id, e.value ->> 'fieldId', count(*)
    from submissions s cross join lateral jsonb_array_elements(s.answers) e
   where s.form_id = p_form
   group by 1, 2;
  insert into form_option_counts (form_id, field_id, option, count)
  select s.form_id, e.value ->> 'fieldId', o.option, count(*)
    from submissions s
         cross join lateral jsonb_array_elements(s.answers) e
         cross join lateral jsonb_array_elements_text(
           case jsonb_typeof(e.value -> 'value') when 'array' then e.value -> 'value'
                else jsonb_build_array(e.value -> 'value') end) o(option)
   where s.form_id = p_form and e.value ->> 'kind' in ('select', 'radio', 'check')
   group by 1, 2, 3;
  insert into form_daily_counts (form_id, day, responses)
  select form_id, (created_at at time zone p_time_zone)::date, count(*)
    from submissions
   where form_id = p_form
   group by 1, 2
  on conflict (form_id, day) do update set responses = excluded.responses;
end $$;

-- migrate() sets easyform.form_timezone to the configured FORM_TIMEZONE for its transaction.
select rebuild_form_results(id, coalesce(nullif(current_setting('easyform.form_timezone', true), ''), 'Asia/Kolkata'))
  from forms
 where response_count > 0;
