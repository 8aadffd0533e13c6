import { Link, useNavigate } from 'react-router';
import type { SubmissionListItem } from '#common/submissions.ts';
import { paths } from '../paths.ts';
import { DateTimeCells } from '../ui/date-time-cells.tsx';
import { DateTimeHeads } from '../ui/date-time-heads.tsx';
import { formatAnswerDate, ownerDateAndTime, useOwnerTimeZone } from '../ui/owner-time-zone.ts';
import { Table } from '../ui/query-table.tsx';

type Props = {
  items: SubmissionListItem[];
  selected: ReadonlySet<string>;
  onSelect: (selected: Set<string>) => void;
  /** The questions shown as columns, after Contact Information. */
  columns?: readonly { _id: string; name: string; isDate?: boolean }[];
  /** The list's order by date, and what turns it round; without it the Date column does not sort. */
  order?: 'newest' | 'oldest';
  onSort?: () => void;
};

/**
 * One page of responses: Contact Information, the chosen answers, the date (sortable); a row opens the response, a
 * checkbox picks it for deleting. Wider than a phone, the table scrolls sideways inside its frame.
 */
export function ResponsesTable({ items, selected, onSelect, columns = [], order, onSort }: Props) {
  const navigate = useNavigate();
  const zone = useOwnerTimeZone();
  const allChosen = items.length > 0 && items.every((i) => selected.has(i._id));
  const someChosen = items.some((i) => selected.has(i._id));
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelect(next);
  };
  return (
    <Table
      head={
        <>
          <th scope="col" className="select-cell">
            <input
              type="checkbox"
              aria-label="Select all responses on this page"
              checked={allChosen}
              ref={(box) => {
                if (box) box.indeterminate = someChosen && !allChosen;
              }}
              onChange={() => onSelect(allChosen ? new Set() : new Set(items.map((i) => i._id)))}
            />
          </th>
          <th scope="col" className="cell-text">
            Contact Information
          </th>
          {columns.map((q) => (
            <th key={q._id} scope="col" className="answer-cell">
              {q.name}
            </th>
          ))}
          {onSort && order ? (
            <>
              <th scope="col" aria-sort={order === 'oldest' ? 'ascending' : 'descending'}>
                <button type="button" className="sort-button" onClick={onSort}>
                  Date <span aria-hidden="true">{order === 'oldest' ? '↑' : '↓'}</span>
                  <span className="visually-hidden">
                    , {order === 'oldest' ? 'oldest first' : 'newest first'}: show{' '}
                    {order === 'oldest' ? 'newest' : 'oldest'} first
                  </span>
                </button>
              </th>
              <th scope="col" className="hide-on-phone">
                Time
              </th>
            </>
          ) : (
            <DateTimeHeads />
          )}
        </>
      }
    >
      {items.map((item) => {
        const { date, time } = ownerDateAndTime(item.createdAt, zone);
        const href = paths.submitedForm.href(item._id);
        const name = item.contact || 'Anonymous response';
        return (
          <tr key={item._id} className="is-clickable" onClick={() => navigate(href)}>
            {/* The cell swallows the click so a near-miss on the checkbox does not open the response. */}
            <td className="select-cell" onClick={(e) => e.stopPropagation()}>
              <input
                type="checkbox"
                aria-label={`Select ${name}, ${date}, ${time}`}
                checked={selected.has(item._id)}
                onChange={() => toggle(item._id)}
              />
            </td>
            <td className="cell-text">
              <Link className="table-link" to={href} onClick={(e) => e.stopPropagation()}>
                {name}
              </Link>
            </td>
            {columns.map((q) => (
              <td key={q._id} className="answer-cell">
                {q.isDate ? formatAnswerDate(item.answers[q._id] ?? '') : (item.answers[q._id] ?? '')}
              </td>
            ))}
            <DateTimeCells date={date} time={time} />
          </tr>
        );
      })}
    </Table>
  );
}
