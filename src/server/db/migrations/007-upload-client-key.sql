-- Anonymous uploads are bounded per client address (issue 10). The address is kept only as a keyed hash (HMAC with
-- a server secret, IPv6 cut to its /64), only while the upload is unclaimed: a claim clears it.
alter table uploads add column client_key text;
create index uploads_unclaimed_client on uploads (client_key, created_at) where claimed_at is null;
