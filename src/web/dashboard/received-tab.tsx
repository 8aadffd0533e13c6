import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { summaryQuery } from '../api/responses.ts';
import { paths } from '../paths.ts';
import { DateTimeCells } from '../ui/date-time-cells.tsx';
import { DateTimeHeads } from '../ui/date-time-heads.tsx';
import { ownerDateAndTime, useOwnerTimeZone } from '../ui/owner-time-zone.ts';
import { QueryTable } from '../ui/query-table.tsx';
import { responsesCount } from '../ui/response-count.ts';

/**
 * Received tab (docs/product.md, Dashboard): per form, the newest response's date and time and the count; 'No
 * Response' when none.
 */
export function ReceivedTab() {
  const summary = useQuery(summaryQuery());
  const navigate = useNavigate();
  const zone = useOwnerTimeZone();
  return (
    <QueryTable
      query={summary}
      loading="Loading responses…"
      failed="Responses could not be loaded."
      empty={<div className="card empty">No forms yet, so no responses either.</div>}
      head={
        <>
          <th scope="col" className="cell-text">
            Received Form Information
          </th>
          <DateTimeHeads />
          <th scope="col" className="hide-on-phone">
            View
          </th>
        </>
      }
      row={(form) => {
        if (form.count === 0) {
          return (
            <tr key={form._id}>
              <td className="cell-text">
                <strong>{form.formTitle}</strong>
              </td>
              <td colSpan={3} className="muted">
                No Response
              </td>
            </tr>
          );
        }
        const { date, time } = ownerDateAndTime(form.latestAt, zone);
        return (
          <tr key={form._id} className="is-clickable" onClick={() => navigate(paths.formList.href(form._id))}>
            <td className="cell-text">
              <Link
                className="table-link"
                to={paths.formList.href(form._id)}
                onClick={(e) => e.stopPropagation()}
              >
                {form.formTitle}
              </Link>
              <br />
              <span className="muted">{responsesCount(form.count)}</span>
            </td>
            <DateTimeCells date={date} time={time} />
            <td className="hide-on-phone">
              <Link
                className="table-action"
                to={paths.formList.href(form._id)}
                onClick={(e) => e.stopPropagation()}
              >
                View<span className="visually-hidden"> responses to {form.formTitle}</span>
              </Link>
            </td>
          </tr>
        );
      }}
    />
  );
}
