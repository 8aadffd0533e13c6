import { RESPONSE_SEARCH_MAX, type ResponseFilter } from '#common/response-filter.ts';

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
      <div className="field">
        <label htmlFor="filter-from">From</label>
        <input
          id="filter-from"
          name="fromDate"
          type="date"
          className="input"
          defaultValue={filter.fromDate ?? ''}
        />
      </div>
      <div className="field">
        <label htmlFor="filter-to">To</label>
        <input
          id="filter-to"
          name="toDate"
          type="date"
          className="input"
          defaultValue={filter.toDate ?? ''}
        />
      </div>
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
