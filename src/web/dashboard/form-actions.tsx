import { useState } from 'react';
import { useNavigate } from 'react-router';
import { formExportFileName } from '#common/download-names.ts';
import type { Form } from '#common/forms.ts';
import { duplicateForm, exportForm, useDeleteForm, useNewForm } from '../api/forms.ts';
import { paths } from '../paths.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';

/** Duplicate, export and delete one form; deleting asks first, since its responses and files go with it. */
export function FormActions({ form }: { form: Pick<Form, '_id' | 'formTitle'> }) {
  const navigate = useNavigate();
  const duplicate = useNewForm(duplicateForm);
  const remove = useDeleteForm();
  const [isConfirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

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
    <details className="form-actions">
      <summary className="button button-secondary button-small" aria-label={`Actions for ${form.formTitle}`}>
        Actions
      </summary>
      <div className="form-actions-menu">
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={duplicate.isPending}
          onClick={() =>
            duplicate.mutate(form._id, { onSuccess: (copy) => navigate(paths.makeForms.href(copy._id)) })
          }
        >
          {duplicate.isPending ? 'Duplicating…' : 'Duplicate'}
        </button>
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
          onClick={() => setConfirming(true)}
        >
          Delete
        </button>
      </div>
      {error || duplicate.error || remove.error ? (
        <span role="alert" className="field-error">
          {error ?? duplicate.error?.message ?? remove.error?.message}
        </span>
      ) : null}
      {isConfirming ? (
        <ConfirmDialog
          title={`Delete “${form.formTitle}”?`}
          confirmLabel={remove.isPending ? 'Deleting…' : 'Delete form'}
          onCancel={() => setConfirming(false)}
          onConfirm={() => remove.mutate(form._id, { onSuccess: () => setConfirming(false) })}
        >
          The form, every response to it and every uploaded file will be deleted. This cannot be undone.
        </ConfirmDialog>
      ) : null}
    </details>
  );
}
