-- Providers beside the primary (docs/providers.md): more keys of CaptchaAI ('pool') and backup
-- services behind the same gate, each with its own cap, a price per solve and a daily budget.

-- A slot belongs to one provider; the primary's are 'captchaai', as every slot was before.
ALTER TABLE gate_slot ADD COLUMN provider varchar(32) NOT NULL DEFAULT 'captchaai';
ALTER TABLE gate_slot DROP CONSTRAINT gate_slot_pkey;
ALTER TABLE gate_slot ADD PRIMARY KEY (provider, slot_no);

-- One row per provider (the primary's cap stays gate.capacity too), written by the workers
-- at start from their settings; the operator's budget is kept apart so that a restart keeps it.
CREATE TABLE gate_provider (
    name              varchar(32) PRIMARY KEY,
    role              varchar(8)  NOT NULL,               -- PRIMARY (captchaai), POOL or BACKUP
    capacity          integer     NOT NULL CHECK (capacity >= 0),
    key_fingerprint   varchar(64) NOT NULL,               -- its breaker's row (never the key)
    prices            jsonb       NOT NULL DEFAULT '{}',  -- the price of ONE solve, by type
    daily_budget      numeric,                            -- configured; null: no cap
    operator_budget   numeric,                            -- set at runtime; wins over daily_budget
    updated_at        timestamptz NOT NULL DEFAULT now()
);

-- The primary's health as every node sees it: since when its calls get only transport errors,
-- HTML 5xx pages or server errors, and the last such failure (a real answer clears both).
CREATE TABLE provider_health (
    name            varchar(32) PRIMARY KEY,
    failing_since   timestamptz,
    last_failure_at timestamptz
);

-- The provider whose slot the solve holds, or whose task it runs (null until a slot is taken).
ALTER TABLE solve ADD COLUMN provider varchar(32);

-- Since when the solve has waited for a thread without a task accepted (waiting_since restarts at
-- every parking, a provider's "no slot" answer included): a backup's overflow-after counts from it.
ALTER TABLE solve ADD COLUMN thread_wait_since timestamptz;

-- What each priced provider was charged: one row per provider, UTC day and type, counted in the
-- statement that stores the task id it accepted.
CREATE TABLE provider_spend (
    provider varchar(32) NOT NULL,
    day      date        NOT NULL,
    type     varchar(32) NOT NULL,
    solves   integer     NOT NULL DEFAULT 0,
    amount   numeric     NOT NULL DEFAULT 0,
    PRIMARY KEY (provider, day, type)
);
