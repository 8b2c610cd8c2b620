-- A caller's report on a claimed answer, and its delivery to the provider (additive only).

-- BAD or GOOD, and when the report was accepted (database clock); null when not reported.
ALTER TABLE solve ADD COLUMN report_verdict text;
ALTER TABLE solve ADD COLUMN reported_at timestamptz;

-- PENDING (to send), SENDING (a job took it: a run that finds it so never sends again), SENT,
-- FAILED (the provider refused it) or UNCERTAIN (a call that may have reached the provider without
-- an answer, or a run that died while sending: never sent again).
ALTER TABLE solve ADD COLUMN report_delivery text;

-- When the delivery ended (SENT, FAILED, UNCERTAIN), and the last error code met while sending.
ALTER TABLE solve ADD COLUMN report_delivered_at timestamptz;
ALTER TABLE solve ADD COLUMN report_error text;
