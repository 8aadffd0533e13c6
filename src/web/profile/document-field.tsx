import { useId, useState } from 'react';
import { UPLOAD_ACCEPT } from '#common/answer-limits.ts';
import { documentTypeAlert, type JoiningForm } from '#common/profile.ts';
import { uploadOwnerDocument } from '../api/profile.ts';
import { LabelledControl } from '../ui/labelled-control.tsx';

type Props = {
  label: 'Pan Card' | 'Aadhar Card';
  saved: JoiningForm['panCard'];
  /** The new upload's id, null to remove the saved one, undefined to keep it. */
  onChange: (uploadId: string | null | undefined) => void;
};

const isAccepted = (file: File) => /\.(jpe?g|png|pdf)$/i.test(file.name);

/** One identity document of the joining form: the saved file, or a new one uploaded now. */
export function DocumentField({ label, saved, onChange }: Props) {
  const id = useId();
  const [state, setState] = useState<{ name: string; status: 'uploading' | 'done' } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const pick = async (file: File) => {
    setError(null);
    if (!isAccepted(file)) {
      // The wrong-file message (docs/product.md, Messages), shown at the field.
      setError(documentTypeAlert(label));
      return;
    }
    setState({ name: file.name, status: 'uploading' });
    try {
      const upload = await uploadOwnerDocument(file);
      setState({ name: upload.name, status: 'done' });
      onChange(upload._id);
    } catch (e) {
      setState(null);
      setError(e instanceof Error ? e.message : 'Upload failed');
    }
  };

  return (
    <LabelledControl id={id} label={label}>
      {state ? (
        <p className="field-hint">
          {state.status === 'uploading'
            ? `Uploading ${state.name}…`
            : `${state.name} uploaded; save to keep it.`}
        </p>
      ) : saved ? (
        <p className="field-hint">
          Saved: <a href={saved.url}>{saved.originalName}</a>{' '}
          <button type="button" className="link-button" onClick={() => onChange(null)}>
            Remove
          </button>
        </p>
      ) : null}
      <input
        id={id}
        className="input"
        type="file"
        accept={UPLOAD_ACCEPT}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) void pick(file);
        }}
      />
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </LabelledControl>
  );
}
