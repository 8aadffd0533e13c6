import { useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import type { PublicForm } from '#common/forms.ts';
import type { Question } from '#common/question-order.ts';
import { FAILURE } from '../../api/client.ts';
import { customerPaths } from '../../customer-paths.ts';
import { SavedScreen } from '../offline/saved-screen.tsx';
import { FillLayout } from '../page/fill-layout.tsx';
import { FillLink } from '../page/fill-link.tsx';
import { navigate } from '../page/fill-navigation.ts';
import { FormHeading } from '../page/form-heading.tsx';
import { focusQuestion } from '../questions/dom-ids.ts';
import type { FieldErrors, PreviewState } from '../questions/questions.ts';
import { useValidation } from '../questions/use-validation.ts';
import type { Draft } from '../storage/fill-storage.ts';
import { useDraft } from '../storage/use-draft.ts';
import { SubmitBar } from '../submit/submit-bar.tsx';
import { attentionMessage, submitMessage } from '../submit/submit-message.ts';
import { SubmitSuccess } from '../submit/submit-success.tsx';
import { useSubmit } from '../submit/use-submit.ts';
import { FileSlot } from './file-slot.tsx';
import { useFileAnswers } from './use-file-answers.ts';

/** Step 2 (/fileUpload): one slot per file question, then Submit. */
export function FileUploadForm({
  form,
  ownerId,
  saved,
}: {
  form: PublicForm;
  ownerId: string;
  saved: Draft;
}) {
  const { draft, update, current } = useDraft(form._id, saved);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { setFile, setSlotBusy, uploading } = useFileAnswers(update, (id) => {
    if (errors[id]) setErrors(({ [id]: _fixed, ...rest }) => rest);
  });
  const backToAnswers = (found: FieldErrors) =>
    navigate(customerPaths.preview.href(), { state: { errors: found } satisfies PreviewState });
  const { withValidation, warmUp, loadFailed } = useValidation();
  const { state, submit } = useSubmit({
    form,
    ownerId,
    draft: current,
    update,
    onQuestionError: (question: Question, message) =>
      question.kind === 'file'
        ? showErrors({ [question.field._id]: message })
        : backToAnswers({ [question.field._id]: message }),
  });

  function showErrors(next: FieldErrors) {
    flushSync(() => setErrors(next));
    const first = form.fileField.find((f) => next[f._id]);
    if (first) focusQuestion(first._id);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    withValidation((validateAnswers) => {
      // current(), not this render's draft: a file may have arrived while the schema loaded.
      const { values, files } = current();
      const found = validateAnswers(form, values, files, true);
      const onEarlierStep = Object.keys(found).filter((id) => !form.fileField.some((f) => f._id === id));
      if (onEarlierStep.length > 0) return backToAnswers(found);
      if (Object.keys(found).length > 0) return showErrors(found);
      void submit();
    });
  }

  if (state.status === 'saved') return <SavedScreen form={form} sending={state.sending} />;
  if (state.status === 'done') {
    return (
      <FillLayout form={form}>
        <SubmitSuccess form={form} onRestart={() => navigate(customerPaths.preview.href())} />
      </FillLayout>
    );
  }

  const sending = state.status === 'sending';
  const errorCount = Object.keys(errors).length;
  return (
    <FillLayout form={form}>
      <FormHeading form={form} step={{ number: 2, of: 2, name: 'Files' }} focus />
      <form className="fill-form" noValidate onSubmit={onSubmit} onFocus={warmUp}>
        {form.fileField.map((field) => (
          <FileSlot
            key={field._id}
            formId={form._id}
            field={field}
            files={draft.files[field._id] ?? []}
            error={errors[field._id]}
            onChange={(change) => setFile(field._id, change)}
            onBusyChange={(isBusy) => setSlotBusy(field._id, isBusy)}
          />
        ))}
        <SubmitBar
          tone={uploading && errorCount === 0 && !loadFailed && !submitMessage(state) ? 'info' : 'error'}
          message={
            errorCount > 0
              ? attentionMessage(errorCount, 'file')
              : loadFailed
                ? FAILURE.offline
                : (submitMessage(state) ?? (uploading ? 'Wait for the upload to finish.' : undefined))
          }
        >
          <FillLink
            to={customerPaths.preview.href()}
            state={{ back: true } satisfies PreviewState}
            className="button button-secondary"
          >
            Back
          </FillLink>
          <button
            type="submit"
            className="button button-primary fill-primary"
            disabled={sending || uploading}
          >
            {sending ? 'Submitting…' : state.status === 'retry' ? 'Try again' : 'Submit'}
          </button>
        </SubmitBar>
      </form>
    </FillLayout>
  );
}
