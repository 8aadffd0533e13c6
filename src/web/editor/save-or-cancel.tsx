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
