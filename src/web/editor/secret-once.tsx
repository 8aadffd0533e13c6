import { useEffect, useId, useRef, useState } from 'react';

type Props = { title: string; url: string; secret: string; onDismiss: () => void };

/** A webhook's signing secret, shown once (the server keeps no way to show it again), with a Copy button. */
export function SecretOnce({ title, url, secret, onDismiss }: Props) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  // Screen-reader and keyboard users land on it: it is the one thing to act on now.
  useEffect(() => ref.current?.focus(), [secret]);

  const copy = () => {
    if (!navigator.clipboard) return setCopied('no');
    navigator.clipboard.writeText(secret).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    );
  };

  return (
    <div ref={ref} tabIndex={-1} className="secret-once" role="group" aria-labelledby={titleId}>
      <h3 id={titleId}>{title}</h3>
      <p className="secret-url">{url}</p>
      <p>
        Copy the signing secret now: it is not shown again. Your receiver uses it to check that a request came
        from Easy Form.
      </p>
      <code className="secret-value">{secret}</code>
      <div className="secret-actions">
        <button type="button" className="button button-secondary" onClick={copy}>
          Copy secret
        </button>
        <button type="button" className="button button-secondary" onClick={onDismiss}>
          Done
        </button>
        <span role="status" className="muted">
          {copied === 'yes' ? 'Copied' : copied === 'no' ? 'Select the secret and copy it by hand' : ''}
        </span>
      </div>
    </div>
  );
}
