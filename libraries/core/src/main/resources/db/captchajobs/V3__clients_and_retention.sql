-- Issue 11: a solve belongs to the API client that enqueued it, and business keys are unique per
-- client. Solves stored before this version belong to the Java API client.
ALTER TABLE solve ADD COLUMN client varchar(100) NOT NULL DEFAULT 'java-api';
ALTER TABLE solve ADD CONSTRAINT solve_client_business_key_key UNIQUE (client, business_key);
ALTER TABLE solve DROP CONSTRAINT solve_business_key_key;

-- The cap on a client's unfinished solves counts through this index.
CREATE INDEX captchajobs_solve_unfinished ON solve (client)
    WHERE status IN ('QUEUED', 'WAITING_FOR_THREAD', 'SUBMITTED');

-- The retention pass deletes by age through these indexes.
CREATE INDEX captchajobs_solve_updated ON solve (updated_at);
CREATE INDEX captchajobs_poll_called ON poll (called_at);
CREATE INDEX captchajobs_poll_solve ON poll (solve_id);
CREATE INDEX captchajobs_slot_handoff_freed ON slot_handoff (freed_at);

-- Parameters that carry secrets (proxy credentials, cookies) are removed from the row once the
-- solve is final: whichever code path sets the final status, the database scrubs them.
CREATE FUNCTION captchajobs_scrub_params() RETURNS trigger AS $$
BEGIN
    NEW.params := NEW.params - 'proxy' - 'cookies';
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER captchajobs_solve_scrub_when_final
    BEFORE UPDATE OF status ON solve
    FOR EACH ROW
    WHEN (NEW.status IN ('SOLVED', 'CLAIMED', 'EXPIRED', 'FAILED'))
    EXECUTE FUNCTION captchajobs_scrub_params();
