import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { FormSettingsBody, FormSettingsView } from '#common/form-settings.ts';
import { SETTINGS_MESSAGE_MAX } from '#common/form-settings.ts';
import { fromZonedInput, toZonedInput } from '#common/zoned-time.ts';
import { useSaveAccountTimeZone } from '../api/account-time-zone.ts';
import { ApiError } from '../api/client.ts';
import { useSaveFormSettings } from '../api/forms.ts';
import { useOwnerTimeZone } from '../ui/owner-time-zone.ts';
import { TextField } from '../ui/text-field.tsx';
import { TimeZoneChoice } from '../ui/time-zone-choice.tsx';
import { SaveStatus } from './save-status.tsx';
import { TextAreaField } from './text-area-field.tsx';
import type { SaveState } from './use-form-editor.ts';

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

const valuesOf = (saved: FormSettingsView, zone: string): Values => ({
  opensAt: saved.opensAt ? toZonedInput(saved.opensAt, zone) : '',
  closesAt: saved.closesAt ? toZonedInput(saved.closesAt, zone) : '',
  responseLimit: saved.responseLimit === null ? '' : String(saved.responseLimit),
  closedMessage: saved.closedMessage ?? '',
  thankYouMessage: saved.thankYouMessage ?? '',
  redirectUrl: saved.redirectUrl ?? '',
});

/**
 * Schedule, limit, messages and redirect of one form; the server checks every value and names what it refuses.
 * Like everything else in the editor, a setting saves as the owner leaves it (or presses Enter), with the
 * editor's status; the schedule is entered and shown in the owner's own time zone, which is kept with the account
 * and chosen here too.
 */
export function SettingsForm({ fid, saved }: { fid: string; saved: FormSettingsView }) {
  const zone = useOwnerTimeZone();
  const form = useForm<Values>({ defaultValues: valuesOf(saved, zone) });
  const save = useSaveFormSettings(fid);
  const saveZone = useSaveAccountTimeZone();
  // Which save the status line speaks of: the last one the owner started.
  const [lastSave, setLastSave] = useState<'settings' | 'zone'>('settings');
  const { errors } = form.formState;
  // What the server last stored, as the inputs show it: a field left unchanged sends nothing.
  const [storedView, setStoredView] = useState(saved);
  const stored = JSON.stringify(valuesOf(storedView, zone));
  // Another zone (chosen here, or read from the account) shows the same stored instants on its own clock.
  useEffect(() => {
    form.reset(valuesOf(storedView, zone));
    // Only a change of zone redraws every input: a save resets them itself, keeping what is being typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [zone]);
  const changeZone = (chosen: string | null) => {
    setLastSave('zone');
    saveZone.mutate(chosen);
  };
  const saveIfChanged = () => {
    if (JSON.stringify(form.getValues()) !== stored) void form.handleSubmit(submit)();
  };
  /** An input's registration with the error shown at it, saving as the owner leaves it. */
  const field = (name: keyof Values) => {
    const registered = form.register(name);
    return {
      error: errors[name]?.message,
      ...registered,
      onBlur: async (event: { target: unknown; type: unknown }) => {
        await registered.onBlur(event);
        saveIfChanged();
      },
    };
  };

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
    setLastSave('settings');
    save.mutate(body, {
      onSuccess: (next) => {
        setStoredView(next);
        // Keeps what the owner has typed since this save was sent.
        form.reset(valuesOf(next, zone), { keepDirtyValues: true });
      },
      onError: (error) => {
        const field = error instanceof ApiError ? error.field : null;
        if (field && (NAMES as string[]).includes(field)) {
          // Shown at its field without taking focus: the owner may already be typing in another one.
          form.setError(field as keyof Values, { message: (error as ApiError).detail });
        }
      },
    });
  };

  const fieldError = save.error instanceof ApiError ? save.error.field : null;
  const status: SaveState =
    lastSave === 'zone'
      ? zoneStatus(saveZone)
      : save.isPending
        ? { kind: 'saving' }
        : save.isError
          ? {
              kind: 'failed',
              message: fieldError ? 'check the highlighted setting.' : save.error.message,
              retry: () => void form.handleSubmit(submit)(),
              dismiss: () => save.reset(),
            }
          : save.isSuccess
            ? { kind: 'saved' }
            : { kind: 'idle' };
  return (
    <form className="settings-form" noValidate onSubmit={form.handleSubmit(submit)}>
      <fieldset className="card settings-group">
        <legend>Schedule</legend>
        <p className="field-hint">
          Times are in your time zone, {zone}. Leave a time empty to have no start or end.
        </p>
        <TimeZoneChoice
          zone={saveZone.isPending ? (saveZone.variables ?? null) : zone}
          onChange={changeZone}
        />
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
        <SaveStatus state={status} />
      </div>
    </form>
  );
}

/** The status line for a save of the owner's zone, retried with the zone the owner chose. */
function zoneStatus(saveZone: ReturnType<typeof useSaveAccountTimeZone>): SaveState {
  if (saveZone.isPending) return { kind: 'saving' };
  if (saveZone.isError) {
    return {
      kind: 'failed',
      message: saveZone.error.message,
      retry: () => saveZone.mutate(saveZone.variables ?? null),
      dismiss: () => saveZone.reset(),
    };
  }
  return saveZone.isSuccess ? { kind: 'saved' } : { kind: 'idle' };
}
