/** The Easy Form logo and name, inside whatever link leads home. */
export function BrandMark() {
  return (
    <>
      <span className="brand-mark" aria-hidden="true">
        E
      </span>
      <span className="brand-name">Easy Form</span>
    </>
  );
}
