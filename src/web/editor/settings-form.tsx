import { useForm } from 'react-hook-form';
import type { FormSettingsBody, FormSettingsView } from '#common/form-settings.ts';
import { SETTINGS_MESSAGE_MAX } from '#common/form-settings.ts';
import { fromZonedInput, toZonedInput } from '#common/zoned-time.ts';
import { ApiError } from '../api/client.ts';
import { useSaveFormSettings } from '../api/forms.ts';
import { Alert } from '../ui/alert.tsx';
import { TextField } from '../ui/text-field.tsx';
import { TextAreaField } from './text-area-field.tsx';

/** The inputs' own values: wall-clock times in the form's zone and text, turned into the API's body on save. */
type Values = Record<keyof FormSettingsBody, string>;
const NAMES: (keyof FormSettingsBody)[] = [
  'opensAt',
  'closesAt',
  'responseLimit',
  'closedMessage',
  'thankYouMessage',
  'redirectUrl',
];

const valuesOf = (saved: FormSettingsView): Values => ({
  opensAt: saved.opensAt ? toZonedInput(saved.opensAt, saved.timeZone) : '',
  closesAt: saved.closesAt ? toZonedInput(saved.closesAt, saved.timeZone) : '',
  responseLimit: saved.responseLimit === null ? '' : String(saved.responseLimit),
  closedMessage: saved.closedMessage ?? '',
  thankYouMessage: saved.thankYouMessage ?? '',
  redirectUrl: saved.redirectUrl ?? '',
});

/** Schedule, limit, messages and redirect of one form; the server checks every value and names what it refuses. */
export function SettingsForm({ fid, saved }: { fid: string; saved: FormSettingsView }) {
  const form = useForm<Values>({ defaultValues: valuesOf(saved) });
  const save = useSaveFormSettings(fid);
  const { errors } = form.formState;
  const zone = saved.timeZone;
  /** An input's registration with the error shown at it. */
  const field = (name: keyof Values) => ({ error: errors[name]?.message, ...form.register(name) });

  const submit = (values: Values) => {
    const time = (name: 'opensAt' | 'closesAt') => {
      if (!values[name]) return null;
      const instant = fromZonedInput(values[name], zone);
      if (!instant) form.setError(name, { message: 'Enter a date and a time' });
      return instant;
    };
    const opensAt = time('opensAt');
    const closesAt = time('closesAt');
    if ((values.opensAt && !opensAt) || (values.closesAt && !closesAt)) return;
    const limit = values.responseLimit.trim();
    if (limit !== '' && !Number.isInteger(Number(limit))) {
      form.setError('responseLimit', { message: 'Enter a whole number, such as 100' });
      return;
    }
    const body: FormSettingsBody = {
      opensAt,
      closesAt,
      responseLimit: limit === '' ? null : Number(limit),
      closedMessage: values.closedMessage,
      thankYouMessage: values.thankYouMessage,
      redirectUrl: values.redirectUrl,
    };
    save.mutate(body, {
      onSuccess: (next) => form.reset(valuesOf(next)),
      onError: (error) => {
        const field = error instanceof ApiError ? error.field : null;
        if (field && (NAMES as string[]).includes(field)) {
          form.setError(
            field as keyof Values,
            { message: (error as ApiError).detail },
            { shouldFocus: true },
          );
        }
      },
    });
  };

  const fieldError = save.error instanceof ApiError ? save.error.field : null;
  return (
    <form className="settings-form" noValidate onSubmit={form.handleSubmit(submit)}>
      <fieldset className="card settings-group">
        <legend>Schedule</legend>
        <p className="field-hint">Times are in {zone}. Leave a time empty to have no start or end.</p>
        <div className="settings-row">
          <TextField label="Open from" type="datetime-local" {...field('opensAt')} />
          <TextField label="Close at" type="datetime-local" {...field('closesAt')} />
        </div>
      </fieldset>
      <fieldset className="card settings-group">
        <legend>Response limit</legend>
        <TextField
          label="Close after this many responses"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          hint={`${saved.responseCount.toLocaleString('en-US')} ${saved.responseCount === 1 ? 'response' : 'responses'} so far. Leave empty for no limit.`}
          {...field('responseLimit')}
        />
        <TextAreaField
          label="Message when the form is closed"
          maxLength={SETTINGS_MESSAGE_MAX}
          placeholder="This form is no longer accepting responses"
          hint="Shown after the closing time, once the limit is reached, or when you close the form."
          {...field('closedMessage')}
        />
      </fieldset>
      <fieldset className="card settings-group">
        <legend>After submitting</legend>
        <TextAreaField
          label="Thank-you message"
          maxLength={SETTINGS_MESSAGE_MAX}
          placeholder="Thank you! Your response was sent."
          {...field('thankYouMessage')}
        />
        <TextField
          label="Redirect to (optional)"
          type="url"
          inputMode="url"
          placeholder="https://example.com/thanks"
          hint="The customer sees your thank-you message, then goes to this address a few seconds later."
          {...field('redirectUrl')}
        />
      </fieldset>
      <div className="settings-actions">
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save settings'}
        </button>
        <div className="settings-status">
          {save.isSuccess && !form.formState.isDirty ? <Alert tone="success">Settings saved.</Alert> : null}
          {save.isError && !fieldError ? <Alert tone="error">Not saved: {save.error.message}</Alert> : null}
          {save.isError && fieldError ? (
            <Alert tone="error">Not saved: check the highlighted setting.</Alert>
          ) : null}
        </div>
      </div>
    </form>
  );
}
