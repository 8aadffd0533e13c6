import { useId, useState } from 'react';
import { dateRangeHint } from '#common/kinds/kind-hints.ts';
import { DateSettingsSchema, type DateSettings } from '#common/kinds/simple-kinds.ts';
import { SettingsForm } from './save-or-cancel.tsx';

type Props = { questionName: string; range?: DateSettings; onSave: (range: DateSettings | null) => void };

/**
 * A date question's earliest and latest days in its card: read out with Edit dates, edited as two date boxes (either
 * may stay empty; both empty removes the range). Checked before it is sent; Escape cancels.
 */
export function DateRangeEditor({ questionName, range, onSave }: Props) {
  const id = useId();
  const [draft, setDraft] = useState<{ earliest: string; latest: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  if (draft === null)
    return (
      <div className="help-text-row">
        <p className="help-text">{dateRangeHint(range) || 'Any day'}</p>
        <button
          type="button"
          className="link-button"
          aria-label={`Edit dates of ${questionName}`}
          onClick={() => setDraft({ earliest: range?.earliest ?? '', latest: range?.latest ?? '' })}
        >
          Edit dates
        </button>
      </div>
    );
  const close = () => {
    setDraft(null);
    setProblem(null);
  };
  const save = () => {
    const chosen = {
      ...(draft.earliest ? { earliest: draft.earliest } : {}),
      ...(draft.latest ? { latest: draft.latest } : {}),
    };
    const parsed = DateSettingsSchema.safeParse(chosen);
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? 'Check the dates');
    onSave(Object.keys(parsed.data).length > 0 ? parsed.data : null);
    close();
  };
  const box = (key: 'earliest' | 'latest', label: string) => (
    <label className="inline-field">
      <span>{label}</span>
      <input
        className="input"
        type="date"
        value={draft[key]}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
        onKeyDown={(e) => {
          if (e.key === 'Escape') close();
        }}
      />
    </label>
  );
  return (
    <SettingsForm
      legend={`Dates of ${questionName}`}
      problemId={`${id}-problem`}
      problem={problem}
      saveLabel="Save dates"
      onCancel={close}
      onSave={save}
    >
      <div className="more-settings-row">
        {box('earliest', 'Earliest')}
        {box('latest', 'Latest')}
      </div>
    </SettingsForm>
  );
}
