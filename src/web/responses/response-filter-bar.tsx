import { RESPONSE_SEARCH_MAX, type ResponseFilter } from '#common/response-filter.ts';

const DAY_FIELDS = [
  { id: 'filter-from', name: 'fromDate', label: 'From' },
  { id: 'filter-to', name: 'toDate', label: 'To' },
] as const;

type Props = {
  filter: ResponseFilter;
  /** The filter the owner asked for, empty fields left out. */
  onApply: (filter: ResponseFilter) => void;
};

/**
 * Search and date range for the responses list. The fields start from the URL (the parent keys this component by
 * it), so the browser's back button and a shared link restore them; nothing is fetched until the owner applies.
 */
export function ResponseFilterBar({ filter, onApply }: Props) {
  const isFiltered = Boolean(filter.q || filter.fromDate || filter.toDate);
  return (
    <form
      role="search"
      aria-label="Filter responses"
      className="card filter-bar"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const text = (name: string) => String(data.get(name) ?? '').trim() || undefined;
        onApply({ q: text('q'), fromDate: text('fromDate'), toDate: text('toDate') });
      }}
    >
      <div className="field filter-search">
        <label htmlFor="filter-q">Search answers</label>
        <input
          id="filter-q"
          name="q"
          type="search"
          className="input"
          maxLength={RESPONSE_SEARCH_MAX}
          defaultValue={filter.q ?? ''}
          placeholder="Name, email, any answer"
        />
      </div>
      {DAY_FIELDS.map(({ id, name, label }) => (
        <div key={name} className="field">
          <label htmlFor={id}>{label}</label>
          <input id={id} name={name} type="date" className="input" defaultValue={filter[name] ?? ''} />
        </div>
      ))}
      <div className="filter-actions">
        <button type="submit" className="button button-primary">
          Apply
        </button>
        {isFiltered ? (
          <button type="button" className="button button-secondary" onClick={() => onApply({})}>
            Clear
          </button>
        ) : null}
      </div>
    </form>
  );
}
