type Props = {
  problemId: string;
  problem: string | null;
  saveLabel: string;
  onCancel: () => void;
  onSave: () => void;
};

/** The end of an editor's small form: what stops the save (if anything), then Cancel and Save. */
export function SaveOrCancel({ problemId, problem, saveLabel, onCancel, onSave }: Props) {
  return (
    <>
      {problem ? (
        <p className="field-error" id={problemId} role="alert">
          {problem}
        </p>
      ) : null}
      <span className="help-text-actions">
        <button type="button" className="button button-small" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button button-small button-primary" onClick={onSave}>
          {saveLabel}
        </button>
      </span>
    </>
  );
}

/**
 * A card's small settings form (a kind's settings, a date's range, a file's rules): a fieldset named by `legend`, its
 * boxes in one row, then what stops the save and Cancel and Save.
 */
export function SettingsForm({
  legend,
  children,
  ...actions
}: Props & { legend: string; children: React.ReactNode }) {
  return (
    <fieldset
      className="help-text-edit more-settings"
      aria-describedby={actions.problem ? actions.problemId : undefined}
    >
      <legend>{legend}</legend>
      {children}
      <SaveOrCancel {...actions} />
    </fieldset>
  );
}
