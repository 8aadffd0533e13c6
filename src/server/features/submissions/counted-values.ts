// What the Results counters count of a stored answer (form_option_counts): shared by the insert of a batch
// (repository.ts) and the delete of responses (responses/delete-repository.ts), which must count alike, and the same
// as the rebuild in migration 029.

/**
 * The kinds whose answers Results count value by value (form_option_counts): choices, numbers, ratings and scales,
 * for their distributions, and grids, by row and column; the same list as rebuild_form_results (migration 029).
 */
export const COUNTED_KINDS = `('select', 'radio', 'check', 'number', 'rating', 'scale', 'grid')`;

/**
 * The values an answer is counted under, as a set-returning call on the stored answer `answer`: each ticked option
 * of a list, each row's choice of a grid as the pair's JSON text (`["Speed", "Good"]`), else the one value. The same
 * expression as rebuild_form_results (migration 029).
 */
export const countedValues = (answer: string) => `jsonb_array_elements_text(
         case jsonb_typeof(${answer} -> 'value')
              when 'array' then ${answer} -> 'value'
              when 'object' then (select coalesce(jsonb_agg(jsonb_build_array(p.key, p.value)::text), '[]')
                                    from jsonb_each_text(${answer} -> 'value') p)
              else jsonb_build_array(${answer} -> 'value') end)`;
