import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import {
  ChangePasswordBodySchema,
  UpdateProfileBodySchema,
  type ChangePasswordBody,
  type Profile,
  type UpdateProfileBody,
} from '#common/accounts.ts';
import { api, ApiError } from '../api/client.ts';
import { saveProfile } from '../api/session.ts';
import { Alert } from '../ui/alert.tsx';
import { PasswordField } from '../ui/password-field.tsx';
import { TextField } from '../ui/text-field.tsx';

/** Settings (the spec's tab is empty): change the account's name and password. */
export function SettingsTab({ ownerId, fullName }: { ownerId: string; fullName: string }) {
  return (
    <div className="settings">
      <RenameCard ownerId={ownerId} fullName={fullName} />
      <PasswordCard />
      <p className="card">
        Your address and identity documents are on the <Link to="/userForm">joining form</Link>.
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
    mutationFn: (body: UpdateProfileBody) =>
      api<Profile>('/api/v1/profile', { method: 'PUT', body, owner: true }),
    onSuccess: (profile) => {
      saveProfile(profile);
      client.setQueryData(['profile', ownerId], profile);
    },
  });
  return (
    <form className="card stack" noValidate onSubmit={form.handleSubmit((body) => rename.mutate(body))}>
      <h2>Your name</h2>
      <TextField
        label="Full name"
        autoComplete="name"
        error={form.formState.errors.fullName?.message}
        {...form.register('fullName')}
      />
      {rename.isSuccess ? <Alert tone="success">Name saved.</Alert> : null}
      {rename.error ? <Alert tone="error">{rename.error.message}</Alert> : null}
      <button type="submit" className="button button-primary" disabled={rename.isPending}>
        {rename.isPending ? 'Saving…' : 'Save name'}
      </button>
    </form>
  );
}

function PasswordCard() {
  const form = useForm<ChangePasswordBody>({
    resolver: zodResolver(ChangePasswordBodySchema),
    defaultValues: { currentPassword: '', password: '', confirmPassword: '' },
  });
  const change = useMutation({
    mutationFn: (body: ChangePasswordBody) =>
      api('/api/v1/changePassword', { method: 'POST', body, owner: true }),
    onSuccess: () => form.reset(),
    onError: (error) => {
      if (error instanceof ApiError && error.field === 'currentPassword') {
        form.setError('currentPassword', { message: error.detail });
      }
    },
  });
  const { errors } = form.formState;
  return (
    <form className="card stack" noValidate onSubmit={form.handleSubmit((body) => change.mutate(body))}>
      <h2>Password</h2>
      <PasswordField
        label="Current password"
        autoComplete="current-password"
        error={errors.currentPassword?.message}
        {...form.register('currentPassword')}
      />
      <PasswordField
        label="New password"
        autoComplete="new-password"
        hint="At least 8 characters."
        error={errors.password?.message}
        {...form.register('password')}
      />
      <PasswordField
        label="Confirm new password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...form.register('confirmPassword')}
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
    </form>
  );
}
