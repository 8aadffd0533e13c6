-- The question kinds beyond the product's five (issue 39, docs/decisions/043-question-kinds.md): a number, a rating,
-- a linear scale, a statement, a consent box, a time and a web address, each with its settings (null for a kind
-- without any). Their answers are stored as text, like a text question's.
alter table form_fields drop constraint form_fields_kind_check;
alter table form_fields add constraint form_fields_kind_check
  check (kind in ('text', 'select', 'radio', 'check', 'file', 'page',
                  'number', 'rating', 'scale', 'statement', 'consent', 'time', 'url'));
alter table form_fields add column settings jsonb;

-- Results count the answers of numbers, ratings and scales as they count options: responses per value given, so the
-- distribution, the mean, the median and the NPS come from counters whatever the number of responses.
create or replace function rebuild_form_results(p_form uuid) returns void language plpgsql as $$
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
   where s.form_id = p_form
     and e.value ->> 'kind' in ('select', 'radio', 'check', 'number', 'rating', 'scale')
   group by 1, 2, 3;
  insert into form_quarter_counts (form_id, quarter, responses)
  select form_id, quarter_of(created_at), count(*)
    from submissions
   where form_id = p_form
   group by 1, 2
  on conflict (form_id, quarter) do update set responses = excluded.responses;
end $$;
