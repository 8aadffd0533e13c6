-- Rate-limit counters shared by every app process on one PostgreSQL (issue 14): one row per limited key (a keyed
-- digest of "route:address" or "route:email", never the address or email itself) and its window. Unlogged: a crash
-- may reset the counters, which costs an attacker's guesses nothing they did not already have, and saves a WAL write
-- on every login attempt. On the embedded engine (one process) the counters stay in memory and this table is empty.
create unlogged table rate_limit_hits (
  key text primary key,
  hits integer not null,
  window_ends timestamptz not null
);
create index rate_limit_hits_window_ends on rate_limit_hits (window_ends);
