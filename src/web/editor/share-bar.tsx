import { useState } from 'react';
import { Link } from 'react-router';

/** The public link (spec §7: {host}/customer/{fid}/{ownerId}) of a form. */
export const publicLink = (fid: string, ownerId: string) =>
  `${window.location.origin}/customer/${fid}/${ownerId}`;

const SUBJECT = 'Submit Your Information';

/** Copy Link, Send (a mail draft) and Preview, for one form. */
export function ShareBar({ fid, ownerId, title }: { fid: string; ownerId: string; title: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
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
      <Link className="button button-secondary" to={`/correctionPurpose?fid=${fid}`}>
        Preview
      </Link>
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
