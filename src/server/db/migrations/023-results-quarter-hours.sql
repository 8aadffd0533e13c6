-- Results' day columns in the owner's own zone (issue 37): responses and opens are counted per quarter hour, an
-- instant, instead of per day of the server's FORM_TIMEZONE. Every zone's offset is a whole number of quarter hours,
-- so the read sums at most 96 rows a day into the days of whichever zone the owner reads in: still counters, however
-- many responses there are. docs/decisions/020-results.md.
create table form_quarter_counts (
  form_id uuid not null references forms (id) on delete cascade,
  -- The start of the quarter hour (UTC seconds a multiple of 900).
  quarter timestamptz not null,
  responses integer not null default 0,
  views integer not null default 0,
  primary key (form_id, quarter)
);

-- The quarter hour an instant falls in.
create function quarter_of(p_at timestamptz) returns timestamptz language sql immutable as $$
  select to_timestamp(floor(extract(epoch from p_at) / 900) * 900)
$$;

-- Responses from the stored submissions; opens were counted per day only, so each day's go to the start of that day
-- in the zone they were counted in (migrate() sets easyform.form_timezone to FORM_TIMEZONE).
insert into form_quarter_counts (form_id, quarter, responses)
select form_id, quarter_of(created_at), count(*) from submissions group by 1, 2;
insert into form_quarter_counts as c (form_id, quarter, views)
select form_id, day::timestamp at time zone
         coalesce(nullif(current_setting('easyform.form_timezone', true), ''), 'Asia/Kolkata'), views
  from form_daily_counts
 where views > 0
on conflict (form_id, quarter) do update set views = c.views + excluded.views;

drop function rebuild_form_results(uuid, text);
drop table form_daily_counts;

-- Recounts one form's responses from its stored submissions (views are kept: only opens make them). The bench and
-- the tests use it to check the counters kept by inserts and deletes.
create function rebuild_form_results(p_form uuid) returns void language plpgsql as $$
begin
  delete from form_option_counts where form_id = p_form;
  delete from form_field_counts where form_id = p_form;
  update form_quarter_counts set responses = 0 where form_id = p_form;
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
  insert into form_quarter_counts (form_id, quarter, responses)
  select form_id, quarter_of(created_at), count(*)
    from submissions
   where form_id = p_form
   group by 1, 2
  on conflict (form_id, quarter) do update set responses = excluded.responses;
end $$;
