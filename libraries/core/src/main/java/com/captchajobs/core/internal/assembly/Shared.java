package com.captchajobs.core.internal.assembly;

import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.jobrunr.Dispatcher;
import com.captchajobs.core.internal.jobrunr.OwnJobRunr;
import com.captchajobs.core.internal.node.NodeSettings;
import com.captchajobs.core.internal.notify.SolveNotifications;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.time.DatabaseClock;
import com.captchajobs.core.internal.upkeep.NodeLiveness;
import com.captchajobs.core.settings.SolveSettings;

/**
 * The parts every node starts, which a worker builds on.
 *
 * @param engine the engine's view of the solve settings
 * @param schema the schema of every table
 * @param jobs schedules submit and poll jobs
 * @param notifications outcomes notified by PostgreSQL (LISTEN/NOTIFY)
 * @param dispatcher wakes our JobRunr server when jobs are ready
 * @param liveness this node's liveness lock, on a worker; else null
 */
record Shared(
    NodeSettings settings,
    SolveSettings engine,
    Schema schema,
    DatabaseClock clock,
    OwnJobRunr jobRunr,
    SolveRepository repository,
    SolveJobs jobs,
    SolveNotifications notifications,
    Dispatcher dispatcher,
    NodeLiveness liveness) {}
