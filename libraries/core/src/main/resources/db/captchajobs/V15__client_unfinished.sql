-- Issue 33: a client's unfinished solves (QUEUED, WAITING_FOR_THREAD, SUBMITTED) are counted as
-- they change rather than by visiting every one of them at each capped enqueue.
--
-- The count of a client is client_unfinished.unfinished plus the sum of its rows in
-- client_unfinished_delta. Triggers on solve only ever INSERT into the delta table (+1 when a row
-- becomes unfinished, -1 when it stops being so), which takes no row lock, so bulk status changes
-- never wait on or deadlock with each other over a counter row. Folding the deltas into the base
-- row (DELETE ... RETURNING, then the upsert, one statement) is done under the client's enqueue
-- lock, by the capped enqueue itself and by the repair pass (docs/architecture.md).

-- No solve row changes while the counts are created and seeded: they start exact.
LOCK TABLE solve IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE client_unfinished (
    client     varchar(100) PRIMARY KEY,
    unfinished integer      NOT NULL
);

CREATE TABLE client_unfinished_delta (
    client varchar(100) NOT NULL,
    delta  integer      NOT NULL
);

CREATE INDEX captchajobs_client_unfinished_delta ON client_unfinished_delta (client);

CREATE FUNCTION captchajobs_count_unfinished() RETURNS trigger AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        IF OLD.status IN ('QUEUED', 'WAITING_FOR_THREAD', 'SUBMITTED') THEN
            INSERT INTO ${flyway:defaultSchema}.client_unfinished_delta (client, delta)
                VALUES (OLD.client, -1);
        END IF;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        IF NEW.status IN ('QUEUED', 'WAITING_FOR_THREAD', 'SUBMITTED') THEN
            INSERT INTO ${flyway:defaultSchema}.client_unfinished_delta (client, delta)
                VALUES (NEW.client, 1);
        END IF;
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER captchajobs_solve_unfinished_inserted
    AFTER INSERT ON solve
    FOR EACH ROW
    WHEN (NEW.status IN ('QUEUED', 'WAITING_FOR_THREAD', 'SUBMITTED'))
    EXECUTE FUNCTION captchajobs_count_unfinished();

CREATE TRIGGER captchajobs_solve_unfinished_deleted
    AFTER DELETE ON solve
    FOR EACH ROW
    WHEN (OLD.status IN ('QUEUED', 'WAITING_FOR_THREAD', 'SUBMITTED'))
    EXECUTE FUNCTION captchajobs_count_unfinished();

-- Fires only when a row crosses between unfinished and anything else (or, were it ever done,
-- moves to another client): the many updates within one side cost nothing here.
CREATE TRIGGER captchajobs_solve_unfinished_changed
    AFTER UPDATE OF status, client ON solve
    FOR EACH ROW
    WHEN ((OLD.status IN ('QUEUED', 'WAITING_FOR_THREAD', 'SUBMITTED'))
            IS DISTINCT FROM (NEW.status IN ('QUEUED', 'WAITING_FOR_THREAD', 'SUBMITTED'))
        OR OLD.client IS DISTINCT FROM NEW.client)
    EXECUTE FUNCTION captchajobs_count_unfinished();

-- TRUNCATE fires no row trigger: it empties the counts with the solves.
CREATE FUNCTION captchajobs_clear_unfinished() RETURNS trigger AS $$
BEGIN
    DELETE FROM ${flyway:defaultSchema}.client_unfinished_delta;
    DELETE FROM ${flyway:defaultSchema}.client_unfinished;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER captchajobs_solve_unfinished_truncated
    AFTER TRUNCATE ON solve
    FOR EACH STATEMENT
    EXECUTE FUNCTION captchajobs_clear_unfinished();

INSERT INTO client_unfinished (client, unfinished)
SELECT client, count(*) FROM solve
WHERE status IN ('QUEUED', 'WAITING_FOR_THREAD', 'SUBMITTED')
GROUP BY client;
