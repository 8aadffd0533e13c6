import { customerPaths } from '../../customer-paths.ts';
import { BrandMark } from '../../ui/brand-mark.tsx';

/** The site header of ui/site-header.tsx with a plain link home: the customer's page has no router. */
export function CustomerHeader() {
  return (
    <header className="site-header">
      <div className="container site-header-inner">
        {/* The customer's page may be framed on another site (docs/decisions/014); our home page may not. */}
        <a href={customerPaths.home.href()} className="brand" target="_top">
          <BrandMark />
        </a>
      </div>
    </header>
  );
}
