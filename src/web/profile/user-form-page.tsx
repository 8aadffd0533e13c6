import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { JoiningFormBodySchema, type JoiningForm, type JoiningFormBody } from '#common/profile.ts';
import { ApiError } from '../api/client.ts';
import { joiningFormQuery, saveJoiningForm } from '../api/profile.ts';
import { useOwner } from '../api/use-owner.ts';
import { Alert } from '../ui/alert.tsx';
import { TextField } from '../ui/text-field.tsx';
import { useScreenTitle } from '../ui/use-screen-title.ts';
import { DocumentField } from './document-field.tsx';
import './user-form.css';

type Details = Omit<JoiningFormBody, 'panCardId' | 'aadharCardId'>;
const FIELDS: { name: keyof Details; label: string; autoComplete: string; type?: string }[] = [
  { name: 'fullName', label: 'Full name', autoComplete: 'name' },
  { name: 'email', label: 'Email', autoComplete: 'email', type: 'email' },
  { name: 'phoneNumber', label: 'Phone number', autoComplete: 'tel', type: 'tel' },
  { name: 'address1', label: 'Address line 1', autoComplete: 'address-line1' },
  { name: 'address2', label: 'Address line 2', autoComplete: 'address-line2' },
  { name: 'address3', label: 'Address line 3', autoComplete: 'address-line3' },
  { name: 'country', label: 'Country', autoComplete: 'country-name' },
  { name: 'state', label: 'State', autoComplete: 'address-level1' },
  { name: 'city', label: 'City', autoComplete: 'address-level2' },
  { name: 'zip', label: 'Zip', autoComplete: 'postal-code' },
];

function JoiningFormEditor({ saved }: { saved: JoiningForm }) {
  const client = useQueryClient();
  const { panCard, aadharCard, updatedAt: _updatedAt, ...details } = saved;
  const [documents, setDocuments] = useState<{ panCardId?: string | null; aadharCardId?: string | null }>({});
  const owner = useOwner();
  const form = useForm<JoiningFormBody>({
    resolver: zodResolver(JoiningFormBodySchema),
    // A first visit starts from the account's own name and address, not from empty fields.
    defaultValues: {
      ...details,
      fullName: details.fullName || owner.fullName,
      email: details.email || owner.email,
    },
  });
  const save = useMutation({
    mutationFn: saveJoiningForm,
    onSuccess: (next) => {
      client.setQueryData(joiningFormQuery().queryKey, next);
      setDocuments({});
    },
    onError: (error) => {
      if (error instanceof ApiError && error.field && error.field in details) {
        form.setError(error.field as keyof Details, { message: error.detail });
      }
    },
  });
  return (
    <form
      className="card user-form"
      noValidate
      onSubmit={form.handleSubmit((body) => save.mutate({ ...body, ...documents }))}
    >
      <div className="user-form-grid">
        {FIELDS.map((f) => (
          <TextField
            key={f.name}
            label={f.label}
            type={f.type ?? 'text'}
            autoComplete={f.autoComplete}
            error={form.formState.errors[f.name]?.message}
            {...form.register(f.name)}
          />
        ))}
      </div>
      <div className="user-form-grid">
        <DocumentField
          label="Pan Card"
          saved={documents.panCardId === null ? null : panCard}
          onChange={(v) => setDocuments((d) => ({ ...d, panCardId: v }))}
        />
        <DocumentField
          label="Aadhar Card"
          saved={documents.aadharCardId === null ? null : aadharCard}
          onChange={(v) => setDocuments((d) => ({ ...d, aadharCardId: v }))}
        />
      </div>
      {save.isSuccess ? <Alert tone="success">Your details are saved.</Alert> : null}
      {save.error && !(save.error instanceof ApiError && save.error.field) ? (
        <Alert tone="error">{save.error.message}</Alert>
      ) : null}
      <button type="submit" className="button button-primary" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save details'}
      </button>
    </form>
  );
}

/**
 * /userForm, the joining form (docs/product.md, Joining form): the owner's own details and two identity
 * documents, kept on their profile.
 */
export function UserFormPage() {
  const saved = useQuery(joiningFormQuery());
  useScreenTitle('Your profile');
  return (
    <>
      <main className="container user-form-page">
        <h1>Joining form</h1>
        <p className="muted">Your details and identity documents, kept with your account.</p>
        <p className="muted">
          The identity documents let whoever runs this Easy Form confirm who publishes forms on it; nobody who
          fills in your forms sees them.
        </p>
        {saved.isPending ? <p className="muted">Loading…</p> : null}
        {saved.isError ? (
          <Alert tone="error">Your details could not be loaded. {saved.error.message}</Alert>
        ) : null}
        {saved.isSuccess ? <JoiningFormEditor saved={saved.data} /> : null}
      </main>
    </>
  );
}
