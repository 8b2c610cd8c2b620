-- Bounded life (issue 12): every repair of a solve left without a live job gets a job id of its
-- own, so that no repair can be skipped as a duplicate (JobRunr skips a job whose id exists).

-- Repair passes that re-created this solve's job: names the next recovery job.
ALTER TABLE solve ADD COLUMN repairs integer NOT NULL DEFAULT 0;
