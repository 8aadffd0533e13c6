import { useId, useState } from 'react';
import { FILES_MAX, fileHint, maxFilesOf, type FileRules } from '#common/kinds/file-rules.ts';
import { FileRulesSchema } from '#common/question-schemas.ts';
import { SettingsForm } from './save-or-cancel.tsx';

type Props = { questionName: string; rules?: FileRules; onSave: (rules: FileRules | null) => void };

/** The size limits offered, in MB (value, text): the server keeps its own limit above them all. */
const SIZE_CHOICES = [
  ['', 'Any size the server takes'],
  ...[1, 2, 5, 10, 25, 50].map((mb) => [String(mb), `${mb} MB`] as const),
] as const;
/** How many files a question may take (value, text). */
const COUNT_CHOICES = Array.from({ length: FILES_MAX }, (_, i) =>
  i === 0 ? (['1', 'One file'] as const) : ([String(i + 1), `Up to ${i + 1} files`] as const),
);

/**
 * A file question's own rules in its card: read out with Edit file rules, edited as two boxes (images, PDFs), a
 * size limit and how many files it takes. Both types, no limit and one file remove the rules. Checked before it is sent; Escape cancels.
 */
export function FileRulesEditor({ questionName, rules, onSave }: Props) {
  const id = useId();
  const [draft, setDraft] = useState<{ image: boolean; pdf: boolean; mb: string; files: string } | null>(
    null,
  );
  const [problem, setProblem] = useState<string | null>(null);
  if (draft === null)
    return (
      <div className="help-text-row">
        <p className="help-text">{fileHint(rules)}</p>
        <button
          type="button"
          className="link-button"
          aria-label={`Edit file rules of ${questionName}`}
          onClick={() =>
            setDraft({
              image: !rules?.types || rules.types.includes('image'),
              pdf: !rules?.types || rules.types.includes('pdf'),
              mb: rules?.maxBytes ? String(rules.maxBytes / 1_000_000) : '',
              files: String(maxFilesOf(rules)),
            })
          }
        >
          Edit file rules
        </button>
      </div>
    );
  const close = () => {
    setDraft(null);
    setProblem(null);
  };
  const save = () => {
    const types = (['image', 'pdf'] as const).filter((t) => draft[t]);
    const chosen = {
      ...(types.length === 1 || types.length === 0 ? { types } : {}),
      ...(draft.mb ? { maxBytes: Number(draft.mb) * 1_000_000 } : {}),
      ...(draft.files !== '1' ? { maxFiles: Number(draft.files) } : {}),
    };
    const parsed = FileRulesSchema.safeParse(chosen);
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? 'Check the rules');
    onSave(Object.keys(parsed.data).length > 0 ? parsed.data : null);
    close();
  };
  const onKeyDown = (e: { key: string }) => {
    if (e.key === 'Escape') close();
  };
  const tick = (key: 'image' | 'pdf', label: string) => (
    <label className="checkbox">
      <input
        type="checkbox"
        checked={draft[key]}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.checked })}
        onKeyDown={onKeyDown}
      />
      <span>{label}</span>
    </label>
  );
  const pick = (key: 'mb' | 'files', label: string, choices: readonly (readonly [string, string])[]) => (
    <label className="inline-field">
      <span>{label}</span>
      <select
        className="input"
        value={draft[key]}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
        onKeyDown={onKeyDown}
      >
        {choices.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <SettingsForm
      legend={`File rules of ${questionName}`}
      problemId={`${id}-problem`}
      problem={problem}
      saveLabel="Save file rules"
      onCancel={close}
      onSave={save}
    >
      <div className="more-settings-row">
        {tick('image', 'Images (JPEG, PNG)')}
        {tick('pdf', 'PDF')}
      </div>
      <div className="more-settings-row">
        {pick('mb', 'Largest file', SIZE_CHOICES)}
        {pick('files', 'Files', COUNT_CHOICES)}
      </div>
    </SettingsForm>
  );
}
