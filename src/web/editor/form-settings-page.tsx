import { useQuery } from '@tanstack/react-query';
import { Link, Navigate } from 'react-router';
import { formQuery, formSettingsQuery } from '../api/forms.ts';
import { paths } from '../paths.ts';
import { Alert } from '../ui/alert.tsx';
import { useScreenTitle } from '../ui/use-screen-title.ts';
import { useEditedFormId } from './editor-page.tsx';
import { NotificationSettings } from './notification-settings.tsx';
import { SettingsForm } from './settings-form.tsx';
import { WebhookSettings } from './webhook-settings.tsx';
import './editor.css';

/**
 * /formSettings?fid= : who is mailed about responses, when the form takes them, and what the customer sees after
 * submitting (issue 12).
 */
export function FormSettingsPage() {
  const fid = useEditedFormId();
  const form = useQuery({ ...formQuery(fid), enabled: Boolean(fid) });
  const settings = useQuery({ ...formSettingsQuery(fid), enabled: Boolean(fid) });
  useScreenTitle(form.data ? `${form.data.formTitle || 'Untitled'} · Settings` : 'Settings');
  if (!fid) return <Navigate to={paths.createPage.href()} replace />;
  return (
    <>
      <main className="container settings-page">
        <nav aria-label="Form" className="settings-nav">
          <Link to={paths.makeForms.href(fid)}>← Back to the editor</Link>
        </nav>
        <h1>Settings</h1>
        <p className="muted settings-subtitle">{form.data ? form.data.formTitle : ' '}</p>
        {settings.isPending ? <p className="muted">Loading the settings…</p> : null}
        {settings.isError ? (
          <Alert tone="error">
            The settings could not be loaded: {settings.error.message}{' '}
            <Link to={paths.dashboard.href()}>Back to your forms</Link>
          </Alert>
        ) : null}
        {settings.isSuccess ? (
          <>
            <NotificationSettings fid={fid} />
            <WebhookSettings fid={fid} />
            <SettingsForm fid={fid} saved={settings.data} />
          </>
        ) : null}
      </main>
    </>
  );
}
