-- A push rings once per res.php call on its task (issue 33, additive only). Every call reserved on
-- a task counts up call_no; a push that rings stamps the submission and the call it rang after
-- (rung_submit, rung_call_no) in one conditional update, so every further push until the task's
-- next call is answered from one indexed read: no job, no event, no notification.
ALTER TABLE solve ADD COLUMN call_no integer NOT NULL DEFAULT 0;
ALTER TABLE solve ADD COLUMN rung_submit integer;
ALTER TABLE solve ADD COLUMN rung_call_no integer;
