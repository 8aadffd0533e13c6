-- The choice grid (issue 39, docs/decisions/043-question-kinds.md): rows × columns, one column chosen per row. Its
-- settings are its rows and columns; its answer is stored as an object, the chosen column by row.
alter table form_fields drop constraint form_fields_kind_check;
alter table form_fields add constraint form_fields_kind_check
  check (kind in ('text', 'select', 'radio', 'check', 'file', 'page',
                  'number', 'rating', 'scale', 'statement', 'consent', 'time', 'url', 'grid'));

-- Results count a grid's answers row by row: responses per (row, column), keyed by the pair as JSON text
-- (["Speed", "Good"]), in the counters choices use; the rebuild counts them the same way.
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
           case jsonb_typeof(e.value -> 'value')
                when 'array' then e.value -> 'value'
                when 'object' then (select coalesce(jsonb_agg(jsonb_build_array(p.key, p.value)::text), '[]')
                                      from jsonb_each_text(e.value -> 'value') p)
                else jsonb_build_array(e.value -> 'value') end) o(option)
   where s.form_id = p_form
     and e.value ->> 'kind' in ('select', 'radio', 'check', 'number', 'rating', 'scale', 'grid')
   group by 1, 2, 3;
  insert into form_quarter_counts (form_id, quarter, responses)
  select form_id, quarter_of(created_at), count(*)
    from submissions
   where form_id = p_form
   group by 1, 2
  on conflict (form_id, quarter) do update set responses = excluded.responses;
end $$;
