import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { closedReasonOf } from '#common/form-gate.ts';
import type { Form } from '#common/forms.ts';
import { formsQuery } from '../api/forms.ts';
import { paths } from '../paths.ts';
import { ownerDateAndTime, useOwnerTimeZone } from '../ui/owner-time-zone.ts';
import { QueryTable } from '../ui/query-table.tsx';
import { responsesCount } from '../ui/response-count.ts';
import { FormActions } from './form-actions.tsx';

export const editorHref = (form: Pick<Form, '_id'>) => paths.makeForms.href(form._id);

/**
 * Request tab (docs/product.md, Dashboard): one row per form of the owner with its response count, so two forms of
 * one name are told apart; a row opens the editor.
 */
export function RequestTab() {
  const forms = useQuery(formsQuery());
  const navigate = useNavigate();
  const zone = useOwnerTimeZone();
  return (
    <QueryTable
      query={forms}
      loading="Loading your forms…"
      failed="Your forms could not be loaded."
      empty={
        <div className="card empty">
          <p>You have no forms yet.</p>
          <Link to={paths.createPage.href()} className="button button-primary">
            Create your first form
          </Link>
        </div>
      }
      head={
        <>
          <th scope="col" className="cell-text">
            Form Name
          </th>
          <th scope="col" className="hide-on-phone">
            Responses
          </th>
          <th scope="col" className="hide-on-phone">
            Date
          </th>
          <th scope="col" className="hide-on-phone">
            Time
          </th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </>
      }
      row={(form) => {
        const { date, time } = ownerDateAndTime(form.createdAt, zone);
        return (
          <tr key={form._id} className="is-clickable" onClick={() => navigate(editorHref(form))}>
            <td className="cell-text">
              <Link className="table-link" to={editorHref(form)} onClick={(e) => e.stopPropagation()}>
                {form.formTitle}
              </Link>
              <ClosedBadge form={form} />
              <span className="only-on-phone muted">
                {date}, {time} · {responsesCount(form.responseCount)}
              </span>
            </td>
            <td className="hide-on-phone">{form.responseCount.toLocaleString('en-US')}</td>
            <td className="hide-on-phone">{date}</td>
            <td className="hide-on-phone">{time}</td>
            <td onClick={(e) => e.stopPropagation()}>
              <FormActions form={form} />
            </td>
          </tr>
        );
      }}
    />
  );
}

const BADGES = { closed: 'Closed', ended: 'Closed', full: 'Full', 'not-open-yet': 'Not open yet' } as const;

/** Says when a form takes no responses now: closed by its owner, past its closing time, full, or not open yet. */
function ClosedBadge({ form }: { form: Form }) {
  const reason = closedReasonOf(form, new Date(), form.responseCount);
  return reason ? <span className="badge badge-danger closed-badge">{BADGES[reason]}</span> : null;
}
