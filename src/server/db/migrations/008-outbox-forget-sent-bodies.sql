-- Mail already sent no longer needs its body, which carries a verification link or a reset code: the mailer now
-- blanks it on sending (docs/decisions/005-mail-outbox.md, addendum), and this does the same for mail sent before.
update mail_outbox set text_body = '', html_body = null where sent_at is not null;
