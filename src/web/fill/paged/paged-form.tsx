import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import type { PublicForm } from '#common/forms.ts';
import { FAILURE } from '../../api/client.ts';
import { customerPaths } from '../../customer-paths.ts';
import { useFileAnswers } from '../files/use-file-answers.ts';
import { SavedScreen } from '../offline/saved-screen.tsx';
import { FillLayout } from '../page/fill-layout.tsx';
import { navigate, navigationState, onNavigate } from '../page/fill-navigation.ts';
import { FormHeading } from '../page/form-heading.tsx';
import { focusQuestion } from '../questions/dom-ids.ts';
import type { FieldErrors, Value } from '../questions/questions.ts';
import { useValidation } from '../questions/use-validation.ts';
import type { Draft } from '../storage/fill-storage.ts';
import { useDraft } from '../storage/use-draft.ts';
import { HoneypotField } from '../submit/honeypot-field.tsx';
import { SubmitBar } from '../submit/submit-bar.tsx';
import { attentionMessage, submitMessage } from '../submit/submit-message.ts';
import { SubmitSuccess } from '../submit/submit-success.tsx';
import { useSubmit } from '../submit/use-submit.ts';
import { applyingDraft, formPages, pageAddress, pageInAddress, pathOf, withOnly } from './form-pages.ts';
import { PageQuestions } from './page-questions.tsx';

/** What a page's history entry holds: the page it was reached from by Next, and answers to fix on it. */
type PageEntry = { from?: string; errors?: FieldErrors } | null;
const entry = () => navigationState() as PageEntry;

/**
 * A form with page breaks, one page at a time: the pages and questions that apply to the answers so far (the same
 * evaluator the server judges the submit with), each page an entry in the browser's history, and Submit on the
 * last page that applies.
 */
export function PagedForm({ form, ownerId, saved }: { form: PublicForm; ownerId: string; saved: Draft }) {
  const { pages, logic } = useMemo(() => formPages(form), [form]);
  const { draft, update, clear, current } = useDraft(form._id, saved);
  const [at, setAt] = useState(() => ({ page: pageInAddress(), moved: false }));
  const [errors, setErrors] = useState<FieldErrors>(() => entry()?.errors ?? {});
  const title = useRef<HTMLHeadingElement>(null);
  const { withValidation, warmUp, loadFailed } = useValidation();
  const fixed = (id: string) => {
    if (errors[id]) setErrors(({ [id]: _fixed, ...rest }) => rest);
  };
  const { setFile, setSlotBusy, uploading } = useFileAnswers(update, fixed);
  const { state, submit, reset } = useSubmit({
    form,
    ownerId,
    draft: current,
    update,
    onQuestionError: (question, message) => showErrors({ [question.field._id]: message }),
    paged: { applying: (d) => applyingDraft(logic, d) },
  });

  // Next, Back and the browser's Back and Forward all change the address; the page follows it.
  useEffect(
    () =>
      onNavigate(() => {
        setAt({ page: pageInAddress(), moved: true });
        const { errors: sent, ...rest } = entry() ?? {};
        setErrors(sent ?? {});
        // Shown once: the browser's Back to this entry later must not bring back messages since fixed.
        if (sent) history.replaceState(rest, '');
      }),
    [],
  );

  // A page the answers no longer reach (an earlier answer changed on another tab, say) gives way to the first.
  const path = pathOf(logic, draft);
  const pageId = at.page !== null && path.pages.includes(at.page) ? at.page : (path.pages[0] ?? '');
  const index = path.pages.indexOf(pageId);
  const page = pages.find((p) => p.id === pageId) ?? { id: '', title: '', questions: [] };
  const asked = page.questions.filter((q) => path.questions.has(q.field._id));
  // …and the address says so, so a reload or a shared link shows the page the customer sees.
  const strayed = at.page !== null && at.page !== pageId && pageId !== '';
  useEffect(() => {
    if (strayed) history.replaceState(history.state, '', pageAddress(pageId));
  }, [strayed, pageId]);

  // On a new page the focus goes to its heading, or to the first answer it sends the customer to fix.
  useEffect(() => {
    if (!at.moved) return;
    const wrong = asked.find((q) => errors[q.field._id]);
    if (wrong) return focusQuestion(wrong.field._id);
    // The page starts at its top; an untitled page's heading is the form's, which FormHeading focuses.
    if (window.scrollY > 0) window.scrollTo(0, 0);
    title.current?.focus({ preventScroll: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per arrival on a page
  }, [at]);

  /** Shows `found` on the first page of the path holding one of them: this one, or one the customer goes back to. */
  function showErrors(found: FieldErrors) {
    const target = pages.find((p) => p.questions.some((q) => found[q.field._id]));
    if (!target) return;
    const here: FieldErrors = {};
    for (const { field } of target.questions) {
      const message = found[field._id];
      if (message) here[field._id] = message;
    }
    if (target.id !== pageId)
      return navigate(pageAddress(target.id), { state: { errors: here } satisfies PageEntry });
    flushSync(() => setErrors(here));
    const first = target.questions.find((q) => here[q.field._id]);
    if (first) focusQuestion(first.field._id);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    withValidation((validateAnswers) => {
      // current(), not this render's draft: an answer may have changed while the schema loaded.
      const now = current();
      const nowPath = pathOf(logic, now);
      const here = new Set(asked.map((q) => q.field._id).filter((id) => nowPath.questions.has(id)));
      const found = validateAnswers(withOnly(form, here), now.values, now.files, true);
      if (Object.keys(found).length > 0) return showErrors(found);
      setErrors({});
      const next = nowPath.pages[nowPath.pages.indexOf(pageId) + 1];
      if (next) return navigate(pageAddress(next), { state: { from: pageId } satisfies PageEntry });
      // The last page: the whole path once more, for a page reached by a reload or a typed address.
      const all = validateAnswers(withOnly(form, nowPath.questions), now.values, now.files, true);
      if (Object.keys(all).length > 0) return showErrors(all);
      void submit();
    });
  }

  function back() {
    const previous = path.pages[index - 1];
    if (previous === undefined) return;
    // Reached by Next: the browser's own Back, so its history does not grow a loop of pages.
    if (entry()?.from === previous) history.back();
    else navigate(pageAddress(previous));
  }

  function setValue(id: string, value: Value) {
    update((d) => ({ ...d, values: { ...d.values, [id]: value } }));
    fixed(id);
  }

  if (state.status === 'saved') return <SavedScreen form={form} sending={state.sending} />;
  if (state.status === 'done') {
    const restart = () => {
      clear();
      reset();
      navigate(customerPaths.preview.href());
    };
    return (
      <FillLayout form={form}>
        <SubmitSuccess form={form} onRestart={restart} />
      </FillLayout>
    );
  }

  const last = index === path.pages.length - 1;
  const sending = state.status === 'sending';
  const errorCount = Object.keys(errors).length;
  const said =
    errorCount > 0
      ? attentionMessage(errorCount, 'answer')
      : loadFailed
        ? FAILURE.offline
        : submitMessage(state);
  return (
    <FillLayout form={form} title={page.title ? `${page.title} · ${form.formTitle}` : undefined}>
      <FormHeading
        key={pageId}
        form={form}
        step={{ number: index + 1, of: path.pages.length, unit: 'Page' }}
        focus={at.moved && !page.title}
      >
        {page.title ? (
          <h2 className="fill-page-title" dir="auto" tabIndex={-1} ref={title}>
            {page.title}
          </h2>
        ) : null}
        {/* The count above says it in words; the bar shows it at a glance. */}
        <progress
          className="fill-page-progress"
          value={index + 1}
          max={path.pages.length}
          aria-hidden="true"
        />
      </FormHeading>
      <form className="fill-form" noValidate onSubmit={onSubmit} onFocus={warmUp}>
        {asked.length === 0 ? (
          <p className="fill-card muted">
            {last ? 'Nothing more to ask: submit when you are ready.' : 'Nothing to answer on this page.'}
          </p>
        ) : null}
        <PageQuestions
          formId={form._id}
          questions={asked}
          draft={draft}
          errors={errors}
          setValue={setValue}
          setFile={setFile}
          setBusy={setSlotBusy}
        />
        <HoneypotField value={draft.website} onChange={(website) => update((d) => ({ ...d, website }))} />
        <SubmitBar
          tone={uploading && !said ? 'info' : 'error'}
          message={said ?? (uploading ? 'Wait for the upload to finish.' : undefined)}
        >
          {index > 0 ? (
            <button type="button" className="button button-secondary" onClick={back}>
              Back
            </button>
          ) : null}
          <button
            type="submit"
            className="button button-primary fill-primary"
            disabled={sending || uploading}
          >
            {!last ? 'Next' : sending ? 'Submitting…' : state.status === 'retry' ? 'Try again' : 'Submit'}
          </button>
        </SubmitBar>
      </form>
    </FillLayout>
  );
}
