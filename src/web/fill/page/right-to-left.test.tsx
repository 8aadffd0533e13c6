import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { orderedQuestions } from '#common/question-order.ts';
import { choiceQuestion } from '#common/test-questions.ts';
import { FileSlot } from '../files/file-slot.tsx';
import { QuestionField } from '../questions/question-field.tsx';
import { SubmitBar } from '../submit/submit-bar.tsx';
import { SubmitSuccess } from '../submit/submit-success.tsx';
import { testForm } from '../test-form.ts';
import { FormHeading } from './form-heading.tsx';
import { FormUnavailable } from './form-unavailable.tsx';

// The same Arabic form as the server's test (server/submissions/html-page.test.ts): both renderers must put
// dir="auto" on the same elements, or the page changes direction when the script takes it over.
const form = testForm({
  formTitle: 'استمارة التسجيل',
  description: 'زوروا https://example.org/ar',
  textField: [
    { _id: 't1', name: 'الاسم الكامل', type: 'text', required: true },
    { _id: 't2', name: 'نبذة عنك', type: 'textarea', required: false },
  ],
  selectField: [{ _id: 's1', name: 'المدينة', required: false, options: [{ _id: 'o1', value: 'الرياض' }] }],
  radioField: [choiceQuestion('r1', 'هل ستحضر؟', true, { o2: 'نعم', o3: 'لا' })],
  checkField: [
    { _id: 'c1', name: 'الاهتمامات', required: false, options: [{ _id: 'o4', value: 'التصميم' }] },
  ],
  fileField: [{ _id: 'f1', name: 'صورة الهوية', type: 'file', required: false }],
  thankYouMessage: 'شكرا لكم!',
});

function renderForm(errors: Record<string, string> = {}) {
  return render(
    <>
      <FormHeading form={form} />
      {orderedQuestions(form).map((q) =>
        q.kind === 'file' ? (
          <FileSlot
            key={q.field._id}
            formId={form._id}
            field={q.field}
            files={[]}
            error={errors[q.field._id]}
            onChange={vi.fn()}
            onBusyChange={vi.fn()}
          />
        ) : (
          <QuestionField
            key={q.field._id}
            question={q}
            value={undefined}
            error={errors[q.field._id]}
            onChange={vi.fn()}
          />
        ),
      )}
    </>,
  );
}

describe('a right-to-left form in the fill components', () => {
  it('gives the title, description, every question, option and answer box its own direction, as the server does', () => {
    const { container } = renderForm({ t1: 'This question is required' });
    expect(screen.getByRole('heading', { name: 'استمارة التسجيل' })).toHaveAttribute('dir', 'auto');
    const description = container.querySelector('.fill-description');
    expect(description).toHaveAttribute('dir', 'auto');
    expect(description?.firstChild?.textContent).toBe('زوروا ');
    expect(screen.getByRole('link', { name: /^https:\/\/example\.org\/ar/ })).toBeVisible();
    const questions = container.querySelectorAll('.fill-question');
    expect(questions).toHaveLength(6);
    for (const q of questions) expect(q).toHaveAttribute('dir', 'auto');
    const options = container.querySelectorAll('label.fill-option');
    expect(options).toHaveLength(3);
    for (const o of options) expect(o).toHaveAttribute('dir', 'auto');
    expect(screen.getByRole('option', { name: 'الرياض' })).toHaveAttribute('dir', 'auto');
    expect(screen.getByRole('textbox', { name: /الاسم الكامل/ })).toHaveAttribute('dir', 'auto');
    expect(screen.getByRole('textbox', { name: /نبذة عنك/ })).toHaveAttribute('dir', 'auto');
    expect(screen.getByText('This question is required')).toHaveAttribute('dir', 'auto');
    // Our own words keep the page's direction.
    expect(screen.getByText('Choose all that apply')).not.toHaveAttribute('dir');
    expect(screen.getByText('Select an Option')).not.toHaveAttribute('dir');
  });

  it('shows the owner’s thank-you and closed messages, and the title in our sentence, in their own direction', () => {
    render(<SubmitSuccess form={form} onRestart={vi.fn()} />);
    expect(screen.getByText('شكرا لكم!')).toHaveAttribute('dir', 'auto');
    expect(screen.getByText('استمارة التسجيل')).toHaveAttribute('dir', 'auto');
    render(<FormUnavailable reason="closed" message="انتهى التسجيل." />);
    expect(screen.getByText('انتهى التسجيل.')).toHaveAttribute('dir', 'auto');
  });
});

describe('the submit bar', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the page’s bottom scroll padding at its height, so a focused control scrolls clear of it', () => {
    const observed: Element[] = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe(element: Element) {
          observed.push(element);
        }
        disconnect() {}
      },
    );
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(90);
    const { unmount, container } = render(
      <SubmitBar message="One answer needs your attention.">
        <button type="submit">Submit</button>
      </SubmitBar>,
    );
    expect(observed).toEqual([container.querySelector('.fill-bar')]);
    expect(document.documentElement.style.getPropertyValue('--fill-bar-space')).toBe('106px');
    unmount();
    expect(document.documentElement.style.getPropertyValue('--fill-bar-space')).toBe('');
  });

  it('brings up a control that gets the focus under it (a long-text box scrolls by its caret alone)', () => {
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        disconnect() {}
      },
    );
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = vi.fn(function (this: Element, options?: unknown) {
      expect(options).toEqual({ block: 'nearest' });
      scrolled.push(this);
    });
    const { container } = render(
      <form>
        <textarea aria-label="Low" />
        <textarea aria-label="High" />
        <SubmitBar>
          <button type="submit">Submit</button>
        </SubmitBar>
      </form>,
    );
    const bar = container.querySelector('.fill-bar');
    const rect = (top: number, bottom: number) => ({ top, bottom }) as DOMRect;
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      if (this === bar) return rect(766, 836);
      return this.getAttribute('aria-label') === 'Low' ? rect(671, 812) : rect(300, 440);
    });
    screen.getByRole('textbox', { name: 'High' }).focus();
    screen.getByRole('textbox', { name: 'Low' }).focus();
    screen.getByRole('button', { name: 'Submit' }).focus();
    expect(scrolled).toEqual([screen.getByRole('textbox', { name: 'Low' })]);
  });
});
