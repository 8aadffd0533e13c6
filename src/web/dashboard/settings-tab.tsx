import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import {
  ChangePasswordBodySchema,
  PASSWORD_MIN_LENGTH,
  UpdateProfileBodySchema,
  type ChangePasswordBody,
  type UpdateProfileBody,
} from '#common/accounts.ts';
import { useSaveAccountTimeZone } from '../api/account-time-zone.ts';
import { changePassword, updateProfile } from '../api/accounts.ts';
import { ApiError } from '../api/client.ts';
import { saveProfile } from '../api/session.ts';
import { paths } from '../paths.ts';
import { Alert } from '../ui/alert.tsx';
import { Field } from '../ui/field.tsx';
import { Form } from '../ui/form.tsx';
import { useOwnerTimeZone } from '../ui/owner-time-zone.ts';
import { TimeZoneChoice } from '../ui/time-zone-choice.tsx';

/** Settings (empty in the original client): the account's name, time zone and password. */
export function SettingsTab({ ownerId, fullName }: { ownerId: string; fullName: string }) {
  return (
    <div className="settings">
      <RenameCard ownerId={ownerId} fullName={fullName} />
      <TimeZoneCard />
      <PasswordCard />
      <p className="card">
        Your address and identity documents are on the <Link to={paths.userForm.href()}>joining form</Link>.
      </p>
    </div>
  );
}

function RenameCard({ ownerId, fullName }: { ownerId: string; fullName: string }) {
  const client = useQueryClient();
  const form = useForm<UpdateProfileBody>({
    resolver: zodResolver(UpdateProfileBodySchema),
    values: { fullName },
  });
  const rename = useMutation({
    mutationFn: updateProfile,
    onSuccess: (profile) => {
      saveProfile(profile);
      client.setQueryData(['profile', ownerId], profile);
    },
  });
  return (
    <Form form={form} onSubmit={(body) => rename.mutate(body)} className="card stack">
      <h2>Your name</h2>
      <Field name="fullName" label="Full name" autoComplete="name" />
      {rename.isSuccess ? <Alert tone="success">Name saved.</Alert> : null}
      {rename.error ? <Alert tone="error">{rename.error.message}</Alert> : null}
      <button type="submit" className="button button-primary" disabled={rename.isPending}>
        {rename.isPending ? 'Saving…' : 'Save name'}
      </button>
    </Form>
  );
}

/** The zone every time is shown in, kept with the account; it saves as it is chosen, like the form's Settings. */
function TimeZoneCard() {
  const zone = useOwnerTimeZone();
  const save = useSaveAccountTimeZone();
  return (
    <section className="card stack" aria-labelledby="time-zone-title">
      <h2 id="time-zone-title">Time zone</h2>
      <p className="field-hint">
        Your lists, responses, schedules and exports show times in {zone}, on every browser you sign in on.
      </p>
      <TimeZoneChoice
        zone={save.isPending ? (save.variables ?? null) : zone}
        onChange={(z) => save.mutate(z)}
      />
      <p className="save-status" role="status">
        {save.isPending ? 'Saving…' : save.isSuccess ? 'All changes saved' : ''}
      </p>
      {save.error ? <Alert tone="error">Not saved: {save.error.message}</Alert> : null}
    </section>
  );
}

function PasswordCard() {
  const form = useForm<ChangePasswordBody>({
    resolver: zodResolver(ChangePasswordBodySchema),
    defaultValues: { currentPassword: '', password: '', confirmPassword: '' },
  });
  const change = useMutation({
    mutationFn: changePassword,
    onSuccess: () => form.reset(),
    onError: (error) => {
      if (error instanceof ApiError && error.field === 'currentPassword') {
        form.setError('currentPassword', { message: error.detail });
      }
    },
  });
  return (
    <Form form={form} onSubmit={(body) => change.mutate(body)} className="card stack">
      <h2>Password</h2>
      <Field
        name="currentPassword"
        label="Current password"
        type="password"
        autoComplete="current-password"
      />
      <Field
        name="password"
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
      />
      <Field
        name="confirmPassword"
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
      />
      {change.isSuccess ? (
        <Alert tone="success">Password changed. Other devices have been signed out.</Alert>
      ) : null}
      {change.error && !(change.error instanceof ApiError && change.error.field) ? (
        <Alert tone="error">{change.error.message}</Alert>
      ) : null}
      <button type="submit" className="button button-primary" disabled={change.isPending}>
        {change.isPending ? 'Changing…' : 'Change password'}
      </button>
    </Form>
  );
}
