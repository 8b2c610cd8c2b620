-- The host application's own schema, in public, under its own Flyway history.
CREATE TABLE host_order (
    id        bigserial PRIMARY KEY,
    reference text NOT NULL
);
