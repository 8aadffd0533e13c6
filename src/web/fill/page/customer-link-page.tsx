import { FormUnavailable } from './form-unavailable.tsx';
import type { FillLoad } from './load-fill-form.ts';

/** Shown only when the customer link did not lead on to /preview. */
export function CustomerLinkPage({ data }: { data: FillLoad }) {
  if (data.state === 'ready') return <FormUnavailable reason="offline" />;
  return <FormUnavailable reason={data.state} message={data.message} look={data.look} />;
}
