import { Component, type ReactNode } from 'react';
import { customerPaths } from '../../customer-paths.ts';
import { CustomerHeader } from './customer-header.tsx';

type State = { error: unknown };

/** ui/root-error.tsx for the customer's pages ('Unexpected Application Error!' and the error text, docs/product.md). */
export class CustomerError extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    return (
      <>
        <CustomerHeader />
        <main className="auth-main">
          <div className="card auth-card" role="alert">
            <h1>Unexpected Application Error!</h1>
            <p className="muted">{error instanceof Error ? error.message : String(error)}</p>
            <div className="row-between">
              <button
                type="button"
                className="button button-primary"
                onClick={() => window.location.reload()}
              >
                Reload
              </button>
              {/* Out of a frame: the home page refuses to be framed (docs/decisions/014). */}
              <a href={customerPaths.home.href()} target="_top">
                Go to the home page
              </a>
            </div>
          </div>
        </main>
      </>
    );
  }
}
