-- The time zone the owner reads and enters times in, kept with the account so every browser shows the same clock.
-- Null: the zone of whichever browser the owner is using. The server checks it is a zone name before storing it.
alter table accounts add column time_zone text;
