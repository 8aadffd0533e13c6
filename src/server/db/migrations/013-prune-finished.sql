-- The hourly sweep deletes finished rows after 30 days (src/server/db/prune.ts): sent mail, processed notification
-- events and finished webhook deliveries. These partial indexes let it find them without reading the whole table.
create index mail_outbox_sent on mail_outbox (sent_at) where sent_at is not null;
create index response_events_done on response_events (done_at) where done_at is not null;
create index webhook_deliveries_finished on webhook_deliveries (created_at) where status <> 'pending';
