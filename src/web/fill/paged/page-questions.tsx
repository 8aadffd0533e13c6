import { recalledField } from '#common/kinds/recall.ts';
import type { FileAnswer } from '#common/submissions.ts';
import { FileSlot } from '../files/file-slot.tsx';
import { QuestionField } from '../questions/question-field.tsx';
import type { FieldErrors, Value } from '../questions/questions.ts';
import type { Draft } from '../storage/fill-storage.ts';
import type { FormPage } from './form-pages.ts';

type Props = {
  formId: string;
  questions: FormPage['questions'];
  draft: Draft;
  errors: FieldErrors;
  setValue: (id: string, value: Value) => void;
  setFile: (id: string, change: (files: FileAnswer[]) => FileAnswer[]) => void;
  setBusy: (id: string, busy: boolean) => void;
};

/** One page's questions, a file among them answered here in the same slot as the files step's. */
export function PageQuestions({ formId, questions, draft, errors, setValue, setFile, setBusy }: Props) {
  const source = { answers: draft.values, hidden: draft.hidden ?? {} };
  return questions.map((asked) => {
    // Its title and help text with the answers given so far and the link's hidden fields recalled.
    const question = { ...asked, field: recalledField(asked.field, source) } as typeof asked;
    const id = question.field._id;
    return question.kind === 'file' ? (
      <FileSlot
        key={id}
        formId={formId}
        field={question.field}
        files={draft.files[id] ?? []}
        error={errors[id]}
        onChange={(change) => setFile(id, change)}
        onBusyChange={(busy) => setBusy(id, busy)}
      />
    ) : (
      <QuestionField
        key={id}
        question={question}
        value={draft.values[id]}
        error={errors[id]}
        onChange={(value) => setValue(id, value)}
      />
    );
  });
}
