import type { SaveState } from './use-form-editor.ts';

/** Says whether the last change is saving, saved, or failed, with a retry (issue 3). */
export function SaveStatus({ state }: { state: SaveState }) {
  if (state.kind === 'failed') {
    return (
      <div className="save-status is-failed" role="alert">
        <span>Not saved: {state.message}</span>
        {state.reload ? (
          <button type="button" className="button button-small button-primary" onClick={state.reload}>
            Reload
          </button>
        ) : (
          <button type="button" className="button button-small button-primary" onClick={state.retry}>
            Retry
          </button>
        )}
        <button type="button" className="link-button" onClick={state.dismiss}>
          Dismiss
        </button>
      </div>
    );
  }
  return (
    <p className="save-status" role="status">
      {state.kind === 'saving' ? 'Saving…' : state.kind === 'saved' ? 'All changes saved' : ''}
    </p>
  );
}
