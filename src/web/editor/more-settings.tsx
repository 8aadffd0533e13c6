import { useId, useState } from 'react';
import type { MoreField } from '#common/forms.ts';
import { numberHint, stepsOf } from '#common/kinds/kind-hints.ts';
import { settingsSchemaOf } from '#common/kinds/more-kinds.ts';
import { SettingsForm } from './save-or-cancel.tsx';

type Draft = Record<string, string | boolean>;
type Props = { field: MoreField; onSave: (settings: Record<string, unknown>) => void };

/** The settings a card shows in one line, as the customer will meet them. */
export function settingsSummary(field: MoreField): string {
  switch (field.kind) {
    case 'number':
      return [numberHint(field.settings) || 'Any number', field.settings.unit].filter(Boolean).join(' · ');
    case 'rating':
      return `1 to ${field.settings.max}, ${field.settings.style === 'stars' ? 'stars' : 'numbers'}`;
    case 'scale':
      return `${field.settings.from} to ${field.settings.to}${field.settings.nps ? ' · NPS' : ''}`;
    case 'statement':
    case 'consent':
      return field.settings.text;
    case 'grid':
      return `${field.settings.rows.length} ${field.settings.rows.length === 1 ? 'row' : 'rows'} · ${field.settings.columns.join(', ')}`;
    default:
      return '';
  }
}

const draftOf = (field: MoreField): Draft => {
  if (!('settings' in field)) return {};
  const s = field.settings as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(s).map(([k, v]) => [
      k,
      typeof v === 'boolean' ? v : Array.isArray(v) ? v.join('\n') : String(v ?? ''),
    ]),
  );
};

/** The draft as settings: numbers as numbers, blanks left out. */
function settingsOf(kind: MoreField['kind'], draft: Draft): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const numeric = new Set(['min', 'max', 'from', 'to']);
  for (const [k, v] of Object.entries(draft)) {
    if (typeof v === 'boolean') out[k] = v;
    // A grid's rows and columns: one a line, blank lines left out.
    else if (kind === 'grid') out[k] = v.split('\n').flatMap((line) => line.trim() || []);
    else if (v.trim() === '') continue;
    else out[k] = numeric.has(k) ? Number(v.replace(',', '.')) : v;
  }
  if (kind === 'number') out.decimals = draft.decimals === true;
  return out;
}

/**
 * A kind's own settings in its card: read out in a line with Edit settings, and edited in place (a number's bounds,
 * whole or decimal and unit; a rating's top and style; a scale's ends and labels, NPS; a statement's or a consent's
 * text). Checked with the server's rules before it is sent, the first problem said beside Save. Escape cancels.
 */
export function MoreSettings({ field, onSave }: Props) {
  const id = useId();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const schema = settingsSchemaOf(field.kind);
  if (!schema) return null;
  const summary = settingsSummary(field);
  if (draft === null)
    return (
      <div className="help-text-row">
        <p className="help-text more-settings-summary" dir="auto">
          {summary}
        </p>
        <button
          type="button"
          className="link-button"
          aria-label={`Edit settings of ${field.name}`}
          onClick={() => setDraft(draftOf(field))}
        >
          Edit settings
        </button>
      </div>
    );
  const set = (key: string, value: string | boolean) => setDraft({ ...draft, [key]: value });
  // Escape in any of the settings cancels, as in the help text's box.
  const onKeyDown = (e: { key: string }) => {
    if (e.key === 'Escape') setDraft(null);
  };
  const text = (key: string, label: string, props: object = {}) => (
    <label className="inline-field">
      <span>{label}</span>
      <input
        className="input"
        value={String(draft[key] ?? '')}
        onChange={(e) => set(key, e.target.value)}
        onKeyDown={onKeyDown}
        {...props}
      />
    </label>
  );
  const choose = (key: string, label: string, values: number[]) => (
    <label className="inline-field">
      <span>{label}</span>
      <select
        className="input"
        value={String(draft[key] ?? '')}
        onChange={(e) => set(key, e.target.value)}
        onKeyDown={onKeyDown}
      >
        {values.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </label>
  );
  const tick = (key: string, label: string) => (
    <label className="checkbox">
      <input
        type="checkbox"
        checked={draft[key] === true}
        onChange={(e) => set(key, e.target.checked)}
        onKeyDown={onKeyDown}
      />
      <span>{label}</span>
    </label>
  );
  const lines = (key: string, label: string) => (
    <label className="help-text-label">
      <span>{label}</span>
      <textarea
        className="input"
        // Every line in sight, up to a grid's 20 rows and one to add.
        rows={Math.min(21, Math.max(4, String(draft[key] ?? '').split('\n').length + 1))}
        value={String(draft[key] ?? '')}
        onChange={(e) => set(key, e.target.value)}
        onKeyDown={onKeyDown}
      />
    </label>
  );
  const save = () => {
    const parsed = schema.safeParse(settingsOf(field.kind, draft));
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? 'Check the settings');
    onSave(parsed.data as Record<string, unknown>);
    setDraft(null);
    setProblem(null);
  };
  return (
    <SettingsForm
      legend={`Settings of ${field.name}`}
      problemId={`${id}-problem`}
      problem={problem}
      saveLabel="Save settings"
      onCancel={() => setDraft(null)}
      onSave={save}
    >
      {field.kind === 'number' ? (
        <div className="more-settings-row">
          {text('min', 'Smallest', { inputMode: 'decimal' })}
          {text('max', 'Largest', { inputMode: 'decimal' })}
          {text('unit', 'Unit', { maxLength: 20 })}
          {tick('decimals', 'Decimals allowed')}
        </div>
      ) : null}
      {field.kind === 'rating' ? (
        <div className="more-settings-row">
          {choose('max', 'Up to', stepsOf({ from: 3, to: 10 }))}
          <label className="inline-field">
            <span>Shown as</span>
            <select
              className="input"
              value={String(draft.style)}
              onChange={(e) => set('style', e.target.value)}
            >
              <option value="stars">Stars</option>
              <option value="numbers">Numbers</option>
            </select>
          </label>
        </div>
      ) : null}
      {field.kind === 'scale' ? (
        <div className="more-settings-row">
          {choose('from', 'From', [0, 1])}
          {choose('to', 'To', stepsOf({ from: 5, to: 10 }))}
          {text('fromLabel', 'Label at the start', { maxLength: 60 })}
          {text('toLabel', 'Label at the end', { maxLength: 60 })}
          {tick('nps', 'Net Promoter Score (0 to 10)')}
        </div>
      ) : null}
      {field.kind === 'statement' || field.kind === 'consent' ? (
        <label className="help-text-label">
          <span>{field.kind === 'statement' ? 'Text' : 'What the customer agrees to'}</span>
          <textarea
            className="input"
            rows={4}
            value={String(draft.text ?? '')}
            onChange={(e) => set('text', e.target.value)}
            onKeyDown={onKeyDown}
          />
        </label>
      ) : null}
      {field.kind === 'grid' ? (
        <div className="more-settings-row">
          {lines('rows', 'Rows, one a line')}
          {lines('columns', 'Columns, one a line')}
        </div>
      ) : null}
    </SettingsForm>
  );
}
