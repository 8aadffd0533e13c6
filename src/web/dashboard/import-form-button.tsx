import { useRef, useState } from 'react';
import type { Form } from '#common/forms.ts';
import { ApiError } from '../api/client.ts';
import { importForm, useNewForm } from '../api/forms.ts';

/** Imports a form definition exported earlier (JSON) as a new form; a bad file says why and creates nothing. */
export function ImportFormButton({ onImported }: { onImported: (form: Form) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const create = useNewForm(importForm);
  const [error, setError] = useState<string | null>(null);

  const onFile = async (file: File) => {
    setError(null);
    let definition: unknown;
    try {
      definition = JSON.parse(await file.text());
    } catch {
      return setError(`${file.name} is not valid JSON. Choose a file exported from Easy Form.`);
    }
    create.mutate(definition, {
      onSuccess: onImported,
      onError: (e) =>
        setError(e instanceof ApiError ? `This file cannot be imported: ${e.message}` : 'Import failed'),
    });
  };

  return (
    <div className="import-form">
      <input
        ref={input}
        type="file"
        accept="application/json,.json"
        className="visually-hidden"
        aria-label="Import a form from a JSON file"
        tabIndex={-1}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void onFile(file);
        }}
      />
      <button
        type="button"
        className="button button-secondary"
        disabled={create.isPending}
        onClick={() => input.current?.click()}
      >
        {create.isPending ? 'Importing…' : 'Import form (JSON)'}
      </button>
      {error ? (
        <p role="alert" className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
