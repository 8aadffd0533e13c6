import { BrandMark } from '../ui/brand-mark.tsx';

/** The site header of ui/site-header.tsx with a plain link home: the customer's page has no router. */
export function CustomerHeader() {
  return (
    <header className="site-header">
      <div className="container site-header-inner">
        <a href="/" className="brand">
          <BrandMark />
        </a>
      </div>
    </header>
  );
}
