/** The message under a question, referenced by the input's aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="field-error fill-error" id={id} dir="auto">
      <span aria-hidden="true" className="fill-error-icon">
        !
      </span>
      {message}
    </p>
  );
}
