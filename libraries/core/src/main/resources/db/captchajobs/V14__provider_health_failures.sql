-- The primary is judged down by a run of consecutive failures across the fleet, not by time alone
-- (docs/providers.md): how many of its calls in a row met server trouble since failing_since.
ALTER TABLE provider_health ADD COLUMN failures integer NOT NULL DEFAULT 0;
