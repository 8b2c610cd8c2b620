-- The operator console (issue 28), additive only.

-- How the stored answer came: 'push' (a push rang for the res.php fetch that found it) or 'poll'.
ALTER TABLE solve ADD COLUMN answered_via varchar(8);

-- What the solve row does not keep: each submission (node, task id), each push that rang, each
-- webhook attempt with its HTTP status. Never a token, an API key, a proxy or cookies. Deleted with
-- its solve (the retention pass deletes solves).
CREATE TABLE solve_event (
    solve_id uuid         NOT NULL REFERENCES solve (id) ON DELETE CASCADE,
    at       timestamptz  NOT NULL DEFAULT now(),
    kind     varchar(16)  NOT NULL,
    detail   varchar(300)
);
CREATE INDEX captchajobs_solve_event_solve ON solve_event (solve_id, at);

-- While someone watches the console's overview, workers read the provider's working threads (one
-- threadsinfo call per key every few seconds for the whole fleet) and store them here.
ALTER TABLE gate ADD COLUMN watched_until timestamptz;
CREATE TABLE provider_threads (
    key_fingerprint varchar(64) PRIMARY KEY,
    threads         integer,
    working_threads integer,
    read_at         timestamptz,
    taken_at        timestamptz
);

-- The console's solves table: newest first by keyset (created_at DESC, id) under each filter.
CREATE INDEX captchajobs_solve_client_created ON solve (client, created_at DESC, id);
CREATE INDEX captchajobs_solve_status_created ON solve (status, created_at DESC, id);
CREATE INDEX captchajobs_solve_code_created ON solve (error_code, created_at DESC, id)
    WHERE error_code IS NOT NULL;
CREATE INDEX captchajobs_solve_batch_created ON solve (batch, created_at DESC, id)
    WHERE batch IS NOT NULL;
CREATE INDEX captchajobs_solve_key_prefix ON solve (business_key text_pattern_ops);

-- Dead solves by code, and the overview's recent answers and reports.
CREATE INDEX captchajobs_solve_dead ON solve (error_code, created_at DESC, id)
    WHERE status = 'FAILED';
CREATE INDEX captchajobs_solve_answered ON solve (solved_at)
    INCLUDE (answered_via, created_at) WHERE solved_at IS NOT NULL;
CREATE INDEX captchajobs_solve_claimed ON solve (claimed_at)
    INCLUDE (type, report_verdict) WHERE claimed_at IS NOT NULL;
