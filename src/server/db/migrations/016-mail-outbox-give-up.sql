-- A mail the SMTP server refuses for good (a 5xx answer), or that still fails a day after it was queued, is given up
-- instead of being retried hourly forever (issue 14): failed_at says when, last_error why.
alter table mail_outbox add column failed_at timestamptz;
drop index mail_outbox_pending;
create index mail_outbox_pending on mail_outbox (next_attempt_at) where sent_at is null and failed_at is null;
