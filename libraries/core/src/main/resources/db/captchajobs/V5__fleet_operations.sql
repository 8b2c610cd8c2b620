-- Operating a fleet (additive only).

-- The worker that reports the fleet-wide gate gauges: one at a time, by a lease renewed when it is
-- scraped; the others report 0, so that sum() and max() over nodes are both the fleet's value.
ALTER TABLE gate ADD COLUMN reporter       varchar(200);
ALTER TABLE gate ADD COLUMN reporter_until timestamptz;

-- An optional label on enqueue, for the batch summary of the operator views.
ALTER TABLE solve ADD COLUMN batch varchar(200);
CREATE INDEX captchajobs_solve_batch ON solve (batch, status) WHERE batch IS NOT NULL;
CREATE INDEX captchajobs_solve_created ON solve (created_at DESC, id);

-- Operator requeues of a failed solve: how many, the last one, and what it failed with before.
ALTER TABLE solve ADD COLUMN requeues            integer NOT NULL DEFAULT 0;
ALTER TABLE solve ADD COLUMN requeued_at         timestamptz;
ALTER TABLE solve ADD COLUMN requeued_error_code varchar(64);

-- Dead solves of the last minutes, for the fleet gauge captchajobs.solves.failed.recent.
CREATE INDEX captchajobs_solve_failed ON solve (updated_at) WHERE status = 'FAILED';
