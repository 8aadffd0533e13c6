import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { paths } from '../paths.ts';
import { SiteHeader } from './site-header.tsx';

/** The screen for an uncaught render error ('Unexpected Application Error!' and the error text, docs/product.md). */
export function RootError() {
  const error = useRouteError();
  const text = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <>
      <SiteHeader />
      <main className="auth-main">
        <div className="card auth-card" role="alert">
          <h1>Unexpected Application Error!</h1>
          <p className="muted">{text}</p>
          <div className="row-between">
            <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
              Reload
            </button>
            <Link to={paths.home.href()}>Go to the home page</Link>
          </div>
        </div>
      </main>
    </>
  );
}
