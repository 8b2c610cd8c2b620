-- What the repair pass needs to tell the provider's working threads apart (additive only).

-- When the task id was stored, on the database's clock: a task stored before a threadsinfo reading
-- was accepted by the provider before it.
ALTER TABLE solve ADD COLUMN task_stored_at timestamptz;

-- Whether the task's in.php asked for a pingback: such a task's answer is pushed the moment it is
-- ready, so a task still unanswered a while after a reading was running at the reading.
ALTER TABLE solve ADD COLUMN push_expected boolean NOT NULL DEFAULT false;
