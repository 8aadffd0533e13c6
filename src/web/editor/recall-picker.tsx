type Props = {
  questionName: string;
  /** The questions of earlier pages, which this one may recall. */
  earlier: readonly { _id: string; name: string }[];
  hiddenFields: readonly string[];
  onInsert: (token: string) => void;
};

/**
 * Inserts a recall at the end of a question's title (docs/decisions/043-question-kinds.md): an earlier page's answer
 * or a hidden field, which the customer then sees in its place ("Thanks, Asha"), or the fallback after `|` when it was
 * left empty. The owner may move it within the title afterwards.
 */
export function RecallPicker({ questionName, earlier, hiddenFields, onInsert }: Props) {
  if (earlier.length === 0 && hiddenFields.length === 0) return null;
  return (
    <label className="inline-field recall-picker">
      <span>Insert</span>
      <select
        className="input"
        aria-label={`Insert an earlier answer or a hidden field into ${questionName}`}
        value=""
        onChange={(e) => {
          if (e.target.value) onInsert(e.target.value);
        }}
      >
        <option value="">an earlier answer…</option>
        {earlier.map((q) => (
          <option key={q._id} value={`{{answer:${q._id}|}}`}>
            {q.name}
          </option>
        ))}
        {hiddenFields.map((name) => (
          <option key={name} value={`{{hidden:${name}|}}`}>
            Hidden field: {name}
          </option>
        ))}
      </select>
    </label>
  );
}
