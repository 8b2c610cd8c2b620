-- CaptchaJobs schema, beside JobRunr's own tables. The solve row is the source of truth;
-- JobRunr jobs carry only the solve id.

CREATE TABLE solve (
    id                   uuid PRIMARY KEY,
    business_key         varchar(200) NOT NULL UNIQUE,
    type                 varchar(32)  NOT NULL,
    params               jsonb        NOT NULL,      -- provider parameters, never the API key
    payload_hash         char(64)     NOT NULL,      -- SHA-256 of type, params, priority and callback: same key + other payload = conflict
    priority             integer      NOT NULL DEFAULT 0,
    callback_url         text,
    status               varchar(24)  NOT NULL,
    task_id              varchar(64),                -- the provider's task id, committed before the first poll is scheduled
    submitted_at         timestamptz,
    token                text,                       -- cleared when claimed or expired
    user_agent           text,
    solved_at            timestamptz,
    expires_at           timestamptz,
    claimed_at           timestamptz,
    error_code           varchar(64),
    error_class          varchar(16),
    submits              integer      NOT NULL DEFAULT 0,  -- in.php calls that returned a task id
    polls                integer      NOT NULL DEFAULT 0,  -- res.php get calls
    thread_waits         integer      NOT NULL DEFAULT 0,  -- times the solve waited for a free thread
    unsolvable_resubmits integer      NOT NULL DEFAULT 0,
    not_before           timestamptz,                -- a waiting solve is not dispatched before this instant (provider said: no thread)
    waiting_since        timestamptz,                -- when it last started waiting for a thread
    job_id               uuid,                       -- the JobRunr job expected to move it next
    submit_lock_until    timestamptz,                -- one in.php call at a time per solve, whatever runs twice
    created_at           timestamptz  NOT NULL DEFAULT now(),
    updated_at           timestamptz  NOT NULL DEFAULT now()
);

CREATE INDEX captchajobs_solve_waiting ON solve (priority DESC, created_at, id) WHERE status = 'WAITING_FOR_THREAD';
CREATE INDEX captchajobs_solve_active ON solve (updated_at) WHERE status IN ('QUEUED', 'SUBMITTED');
CREATE INDEX captchajobs_solve_solved ON solve (expires_at) WHERE status = 'SOLVED';
CREATE INDEX captchajobs_solve_recent ON solve (type, solved_at DESC) WHERE solved_at IS NOT NULL;

-- Every status change is pushed to listeners on any node (Solves.await, server-sent events).
CREATE FUNCTION captchajobs_notify_status() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('captchajobs_solve', NEW.id::text || ':' || NEW.status);
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER captchajobs_solve_status_changed
    AFTER INSERT OR UPDATE OF status ON solve
    FOR EACH ROW EXECUTE FUNCTION captchajobs_notify_status();

-- The fleet gate: one row per provider thread of the cap. A slot is free when solve_id is null
-- or its lease has ended. At most one holder per slot, at most one slot per solve.
CREATE TABLE gate (
    id       integer PRIMARY KEY CHECK (id = 1),
    capacity integer NOT NULL CHECK (capacity >= 0)      -- captchaai.threads, set by the worker nodes at start
);
INSERT INTO gate (id, capacity) VALUES (1, 0);

CREATE TABLE gate_slot (
    slot_no     integer PRIMARY KEY,
    solve_id    uuid UNIQUE,
    node        varchar(200),
    server_id   uuid,          -- JobRunr background job server holding it: reclaimed when that server leaves
    acquired_at timestamptz,
    lease_until timestamptz,
    freed_at    timestamptz,   -- last release, to measure freed slot -> next in.php
    phantom     boolean NOT NULL DEFAULT false  -- held for a task an in.php call may have created although its answer was lost
);

-- The breaker: one row per API key fingerprint (never the key).
CREATE TABLE breaker (
    key_fingerprint varchar(64) PRIMARY KEY,
    open            boolean      NOT NULL,
    error_code      varchar(64),
    reason          text,
    opened_at       timestamptz,
    closed_at       timestamptz
);

-- One row per res.php poll: intended and actual call time (lateness), for metrics and the bench.
CREATE TABLE poll (
    solve_id    uuid        NOT NULL,
    submit_no   integer     NOT NULL,
    poll_no     integer     NOT NULL,
    intended_at timestamptz NOT NULL,
    called_at   timestamptz NOT NULL,
    outcome     varchar(64) NOT NULL,
    PRIMARY KEY (solve_id, submit_no, poll_no)
);

-- When a slot was freed and when the next in.php call on a handed-over slot happened.
CREATE TABLE slot_handoff (
    solve_id  uuid        NOT NULL,
    freed_at  timestamptz NOT NULL,
    submit_at timestamptz NOT NULL
);
