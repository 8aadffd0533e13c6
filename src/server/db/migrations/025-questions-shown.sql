-- Results say how many responses each question was shown to (issue 38): a response records the questions it was not
-- asked (on a page its answers skipped, or whose own condition did not hold; null when it was asked every question),
-- and a counter per question keeps how many responses skipped it, kept by the statements that insert and delete
-- submissions like the other Results counters. docs/decisions/042-pages-and-conditions.md.
alter table submissions add column skipped jsonb;

create table form_skip_counts (
  form_id uuid not null references forms (id) on delete cascade,
  field_id text not null,
  responses integer not null,
  primary key (form_id, field_id)
);

-- The recount of one form's Results (the bench and the tests check the kept counters against it) recounts the skips
-- too: the recount of the answers, as migration 023 made it, and then the skips.
alter function rebuild_form_results(uuid) rename to rebuild_answer_counts;
create function rebuild_form_results(p_form uuid) returns void language plpgsql as $$
begin
  perform rebuild_answer_counts(p_form);
  delete from form_skip_counts where form_id = p_form;
  insert into form_skip_counts (form_id, field_id, responses)
  select s.form_id, k.field_id, count(*)
    from submissions s cross join lateral jsonb_array_elements_text(s.skipped) k(field_id)
   where s.form_id = p_form and s.skipped is not null
   group by 1, 2;
end $$;
