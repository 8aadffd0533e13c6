import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { formExportFileName } from '#common/download-names.ts';
import type { Form } from '#common/forms.ts';
import { duplicateForm, exportForm, useDeleteForm, useNewForm } from '../api/forms.ts';
import { paths } from '../paths.ts';
import { ActionButton } from '../ui/action-button.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { responsesCount } from '../ui/response-count.ts';

/** What goes with a deleted form, in the words of the question that asks first. */
export const deleteQuestionOf = (form: Pick<Form, 'formTitle' | 'responseCount'>) =>
  form.responseCount > 0
    ? `Delete “${form.formTitle}” and its ${responsesCount(form.responseCount)}?`
    : `Delete “${form.formTitle}”?`;

/**
 * Duplicate, export and delete one form; deleting asks first, since its responses and files go with it. The menu
 * closes with Escape (focus back on its button) and when an item opens the question.
 */
export function FormActions({ form }: { form: Pick<Form, '_id' | 'formTitle' | 'responseCount'> }) {
  const navigate = useNavigate();
  const duplicate = useNewForm(duplicateForm);
  const remove = useDeleteForm();
  const menu = useRef<HTMLDetailsElement>(null);
  const [isConfirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const closeMenu = () => {
    if (menu.current) menu.current.open = false;
  };
  useEffect(() => {
    const details = menu.current;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !details?.open) return;
      e.preventDefault();
      details.open = false;
      details.querySelector('summary')?.focus();
    };
    details?.addEventListener('keydown', onKey);
    return () => details?.removeEventListener('keydown', onKey);
  }, []);

  const download = async () => {
    setError(null);
    try {
      const definition = await exportForm(form._id);
      const url = URL.createObjectURL(
        new Blob([JSON.stringify(definition, null, 2)], { type: 'application/json' }),
      );
      const link = document.createElement('a');
      link.href = url;
      link.download = formExportFileName(form.formTitle);
      link.click();
      URL.revokeObjectURL(url);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Export failed');
    }
  };

  return (
    <>
      <details ref={menu} className="form-actions">
        <summary
          className="button button-secondary button-small"
          aria-label={`Actions for ${form.formTitle}`}
        >
          Actions
        </summary>
        <div className="form-actions-menu">
          <ActionButton
            small
            pending={duplicate.isPending}
            pendingLabel="Duplicating…"
            onClick={() =>
              duplicate.mutate(form._id, { onSuccess: (copy) => navigate(paths.makeForms.href(copy._id)) })
            }
          >
            Duplicate
          </ActionButton>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => void download()}
          >
            Export
          </button>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => {
              closeMenu();
              setConfirming(true);
            }}
          >
            Delete
          </button>
        </div>
      </details>
      {error || duplicate.error || remove.error ? (
        <span role="alert" className="field-error">
          {error ?? duplicate.error?.message ?? remove.error?.message}
        </span>
      ) : null}
      {isConfirming ? (
        <ConfirmDialog
          title={deleteQuestionOf(form)}
          confirmLabel={remove.isPending ? 'Deleting…' : 'Delete form'}
          onCancel={() => setConfirming(false)}
          onConfirm={() => remove.mutate(form._id, { onSuccess: () => setConfirming(false) })}
          returnFocusTo={() => menu.current?.querySelector('summary')}
        >
          {form.responseCount > 0
            ? `The form, its ${responsesCount(form.responseCount)} and every uploaded file will be deleted.`
            : 'The form will be deleted.'}{' '}
          This cannot be undone.
        </ConfirmDialog>
      ) : null}
    </>
  );
}
