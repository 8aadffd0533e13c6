// What the owner's table of responses shows of each answer: one short line of text per question.
import { fieldsOf, type Form } from '#common/forms.ts';
import { truncateText } from '#common/unstorable-text.ts';
import type { SubmissionDeps } from '../deps.ts';
import { uploadIdsOf, type SubmissionRecord } from '../repository.ts';
import { cellOf } from './csv.ts';

/** Longest text a table cell is given; the response's own page has the whole answer. */
const CELL_MAX = 200;

/** The form's questions in the order its page shows them. */
export function fieldsInOrder(form: Form) {
  const byId = new Map(fieldsOf(form).map((f) => [f._id, f]));
  return form.fieldOrder.flatMap(({ _id }) => byId.get(_id) ?? []);
}

/** Each submission's answers as short text by question id: choices joined, a file by its name (one query for all). */
export async function answerTexts(
  deps: Pick<SubmissionDeps, 'files'>,
  items: readonly Pick<SubmissionRecord, 'id' | 'answers'>[],
): Promise<Map<string, Record<string, string>>> {
  const uploadIds = items.flatMap((s) => s.answers.flatMap((a) => uploadIdsOf(a)));
  const files = uploadIds.length > 0 ? await deps.files.view(uploadIds) : new Map();
  return new Map(
    items.map((s) => [
      s.id,
      Object.fromEntries(
        s.answers.map((a) => {
          const text = cellOf(a, (id) => files.get(id)?.originalName ?? '');
          return [a.fieldId, text.length > CELL_MAX ? `${truncateText(text, CELL_MAX - 1)}…` : text];
        }),
      ),
    ]),
  );
}
