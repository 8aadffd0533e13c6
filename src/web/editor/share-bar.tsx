import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../paths.ts';

/** The public link of a form, {host}/customer/{fid}/{ownerId} (docs/product.md, Customer pages). */
export const publicLink = (fid: string, ownerId: string) =>
  `${window.location.origin}/customer/${fid}/${ownerId}`;

const SUBJECT = 'Submit Your Information';

type ShareBarProps = {
  fid: string;
  ownerId: string;
  title: string;
  accepting: boolean;
  /** Saves the new state; resolves whether it was saved. */
  onAcceptingChange: (accepting: boolean) => Promise<boolean>;
};

/** Copy Link, Send (a mail draft) and Preview, for one form; and whether it takes responses. */
export function ShareBar({ fid, ownerId, title, accepting, onAcceptingChange }: ShareBarProps) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  // Shown at once while the change is saved; the form's saved state takes over when the server answers.
  const [pending, setPending] = useState<boolean | null>(null);
  const open = pending ?? accepting;
  const link = publicLink(fid, ownerId);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  const mail = `mailto:?subject=${encodeURIComponent(SUBJECT)}&body=${encodeURIComponent(`Please fill in "${title}": ${link}`)}`;
  return (
    <div className="share-bar">
      <label className="share-link">
        <span className="visually-hidden">Public link</span>
        <input className="input" readOnly value={link} onFocus={(e) => e.target.select()} />
      </label>
      <button type="button" className="button button-primary" onClick={() => void copy()}>
        Copy Link
      </button>
      <a className="button button-secondary" href={mail}>
        Send
      </a>
      <Link className="button button-secondary" to={paths.correctionPurpose.href(fid)}>
        Preview
      </Link>
      <label className="accepting-switch">
        <input
          type="checkbox"
          role="switch"
          checked={open}
          onChange={(e) => {
            setPending(e.target.checked);
            void onAcceptingChange(e.target.checked).finally(() => setPending(null));
          }}
        />
        <span>Accepting responses</span>
      </label>
      {open ? null : (
        <p className="share-closed">
          Closed: people who open the link are told this form is no longer accepting responses, and nothing
          more can be submitted. Responses already received stay.
        </p>
      )}
      <p role="status" className="share-status">
        {copied === 'yes'
          ? 'Link Copied'
          : copied === 'failed'
            ? 'Copy failed: select the link and copy it yourself.'
            : ''}
      </p>
    </div>
  );
}
