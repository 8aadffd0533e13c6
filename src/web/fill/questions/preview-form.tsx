import { useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import type { PublicForm } from '#common/forms.ts';
import { recalledField } from '#common/kinds/recall.ts';
import { orderedQuestions, type Question } from '#common/question-order.ts';
import { FAILURE } from '../../api/client.ts';
import { customerPaths } from '../../customer-paths.ts';
import { SavedScreen } from '../offline/saved-screen.tsx';
import { FillLayout } from '../page/fill-layout.tsx';
import { navigate, navigationState } from '../page/fill-navigation.ts';
import { FormHeading } from '../page/form-heading.tsx';
import type { Draft } from '../storage/fill-storage.ts';
import { useDraft } from '../storage/use-draft.ts';
import { HoneypotField } from '../submit/honeypot-field.tsx';
import { SubmitBar } from '../submit/submit-bar.tsx';
import { attentionMessage, submitMessage } from '../submit/submit-message.ts';
import { SubmitSuccess } from '../submit/submit-success.tsx';
import { useSubmit } from '../submit/use-submit.ts';
import { focusQuestion } from './dom-ids.ts';
import { QuestionField } from './question-field.tsx';
import type { FieldErrors, PreviewState, Value } from './questions.ts';
import { useValidation } from './use-validation.ts';

type AskedHere = Exclude<Question, { kind: 'file' }>;

/** Step 1 (/preview): every question but the files. Next checks them; a form without files submits here. */
export function PreviewForm({ form, ownerId, saved }: { form: PublicForm; ownerId: string; saved: Draft }) {
  const { draft, update, clear, current } = useDraft(form._id, saved);
  const [errors, setErrors] = useState<FieldErrors>(() => (navigationState() as PreviewState)?.errors ?? {});
  // Back from the files step: the focus goes to this step's heading rather than the page's body.
  const [cameBack] = useState(() => (navigationState() as PreviewState)?.back === true);
  const questions = orderedQuestions(form).filter((q): q is AskedHere => q.kind !== 'file');
  const hasFiles = form.fileField.length > 0;
  const { withValidation, warmUp, loadFailed } = useValidation();
  const { state, submit, reset } = useSubmit({
    form,
    ownerId,
    draft: current,
    update,
    onQuestionError: (question, message) => showErrors({ [question.field._id]: message }),
  });

  function showErrors(next: FieldErrors) {
    flushSync(() => setErrors(next));
    const first = questions.find((q) => next[q.field._id]);
    if (first) focusQuestion(first.field._id);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    withValidation((validateAnswers) => {
      // current(), not this render's draft: an answer may have changed while the schema loaded.
      const found = validateAnswers(form, current().values);
      if (Object.keys(found).length > 0) return showErrors(found);
      setErrors({});
      if (hasFiles) return navigate(customerPaths.fileUpload.href());
      void submit();
    });
  }

  // What Next needs (the shared schema, and the files step) loads once the customer starts on the form.
  function onFocus() {
    warmUp();
    if (hasFiles) void import('../files/file-upload-page.tsx').catch(() => undefined);
  }

  function setValue(id: string, value: Value) {
    update((d) => ({ ...d, values: { ...d.values, [id]: value } }));
    if (errors[id]) setErrors(({ [id]: _fixed, ...rest }) => rest);
  }

  if (state.status === 'saved') return <SavedScreen form={form} sending={state.sending} />;
  if (state.status === 'done') {
    const restart = () => {
      clear();
      reset();
      window.scrollTo(0, 0);
    };
    return (
      <FillLayout form={form}>
        <SubmitSuccess form={form} onRestart={restart} />
      </FillLayout>
    );
  }

  const errorCount = Object.keys(errors).length;
  const sending = state.status === 'sending';
  return (
    <FillLayout form={form}>
      <FormHeading
        form={form}
        step={hasFiles ? { number: 1, of: 2, name: 'Your answers' } : undefined}
        focus={cameBack}
      />
      <form className="fill-form" noValidate onSubmit={onSubmit} onFocus={onFocus}>
        {questions.length === 0 ? <p className="fill-card muted">This form has no questions yet.</p> : null}
        {questions.map((question) => (
          <QuestionField
            key={question.field._id}
            question={
              {
                ...question,
                field: recalledField(question.field, { answers: draft.values, hidden: draft.hidden ?? {} }),
              } as typeof question
            }
            value={draft.values[question.field._id]}
            error={errors[question.field._id]}
            onChange={(value) => setValue(question.field._id, value)}
          />
        ))}
        <HoneypotField value={draft.website} onChange={(website) => update((d) => ({ ...d, website }))} />
        <SubmitBar
          message={
            errorCount > 0
              ? attentionMessage(errorCount, 'answer')
              : loadFailed
                ? FAILURE.offline
                : submitMessage(state)
          }
        >
          <button type="submit" className="button button-primary fill-primary" disabled={sending}>
            {hasFiles ? 'Next' : sending ? 'Submitting…' : state.status === 'retry' ? 'Try again' : 'Submit'}
          </button>
        </SubmitBar>
      </form>
    </FillLayout>
  );
}
