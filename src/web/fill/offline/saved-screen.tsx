import { lazy, Suspense } from 'react';
import type { PublicForm } from '#common/forms.ts';
import { FillLayout } from '../page/fill-layout.tsx';

// Loaded with the queue that leads to this screen, so the first screen does not carry it.
const SavedOnDevice = lazy(() => import('./saved-on-device.tsx').then((m) => ({ default: m.SavedOnDevice })));

/** The `saved` submit state: the response waits on this device (docs/decisions/025). */
export function SavedScreen({ form, sending }: { form: PublicForm; sending: boolean }) {
  return (
    <FillLayout form={form}>
      <Suspense fallback={null}>
        <SavedOnDevice formTitle={form.formTitle} sending={sending} />
      </Suspense>
    </FillLayout>
  );
}
