import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { FormNotifications } from '#common/notifications.ts';
import { formQuery } from '../api/forms.ts';
import { formNotificationsQuery, useSaveFormNotifications } from '../api/notifications.ts';
import './notification-settings.css';

/** Who is mailed when a response arrives: the owner (folded into a digest when many come), and the respondent. */
export function NotificationSettings({ fid }: { fid: string }) {
  const settings = useQuery(formNotificationsQuery(fid));
  // The editor keeps the form itself fresh as questions are added: whether it has an email question comes from it.
  const form = useQuery(formQuery(fid));
  const save = useSaveFormNotifications(fid);
  const titleId = useId();
  const copyHintId = useId();
  if (settings.isPending) {
    return (
      <section className="card notification-settings" aria-labelledby={titleId}>
        <h2 id={titleId}>Notifications</h2>
        <p className="muted">Loading…</p>
      </section>
    );
  }
  if (settings.isError) {
    return (
      <section className="card notification-settings" aria-labelledby={titleId}>
        <h2 id={titleId}>Notifications</h2>
        <p role="alert">Could not load the notification settings: {settings.error.message}</p>
      </section>
    );
  }
  // While saving, the boxes show what was asked for; the server's answer replaces it.
  const shown: FormNotifications = save.isPending && save.variables ? save.variables : settings.data;
  const change = (next: Partial<FormNotifications>) =>
    save.mutate({ notifyOwner: shown.notifyOwner, respondentCopy: shown.respondentCopy, ...next });
  const hasEmailQuestion =
    form.data?.textField.some((f) => f.type === 'email') ?? settings.data.hasEmailQuestion;
  return (
    <section className="card notification-settings" aria-labelledby={titleId}>
      <h2 id={titleId}>Notifications</h2>
      <label className="checkbox-row">
        <input
          type="checkbox"
          checked={shown.notifyOwner}
          onChange={(e) => change({ notifyOwner: e.target.checked })}
        />
        <span>Email me when a response arrives</span>
      </label>
      <p className="muted notification-hint">
        When many arrive together, you get one summary every few minutes.
      </p>
      <label className="checkbox-row">
        <input
          type="checkbox"
          checked={shown.respondentCopy}
          aria-describedby={copyHintId}
          onChange={(e) => change({ respondentCopy: e.target.checked })}
        />
        <span>Send respondents a copy of their answers</span>
      </label>
      <p id={copyHintId} className="muted notification-hint">
        {hasEmailQuestion
          ? 'Sent to the address they type in the form’s email question.'
          : 'Add an email question first: the copy goes to the address typed there.'}
      </p>
      {save.isError ? (
        <p role="alert" className="notification-status is-failed">
          Not saved: {save.error.message}
        </p>
      ) : (
        <p role="status" className="notification-status">
          {save.isPending ? 'Saving…' : save.isSuccess ? 'All changes saved' : ''}
        </p>
      )}
    </section>
  );
}
