/** Forms can ask for anything; a password question is how phishing forms work, so say so plainly. */
export function PasswordNotice() {
  return (
    <p role="note" className="fill-notice">
      <span aria-hidden="true" className="fill-notice-icon">
        !
      </span>
      Never enter a password you use elsewhere. Easy Form will never ask for your account password.
    </p>
  );
}
