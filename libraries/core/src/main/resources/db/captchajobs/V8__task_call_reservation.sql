-- The last res.php call on a solve's task, reserved before it is made (additive only). A poll and a
-- fetch a push rang for may start within milliseconds of each other on two nodes: each reserves
-- its call in one statement that succeeds only when the submission's last call is at least the
-- poll interval old, so the provider never sees two calls on a task less than 5 s apart.
ALTER TABLE solve ADD COLUMN last_call_at timestamptz;
ALTER TABLE solve ADD COLUMN last_call_submit integer;
