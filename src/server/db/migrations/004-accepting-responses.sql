-- An owner can stop a form taking responses (and open it again) without deleting it or its submissions.
alter table forms add column accepting_responses boolean not null default true;
