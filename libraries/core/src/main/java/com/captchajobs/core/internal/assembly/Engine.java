package com.captchajobs.core.internal.assembly;

import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.enqueue.SolveEnqueuer;
import com.captchajobs.core.internal.node.Parts;
import com.captchajobs.core.internal.notify.SolveNotifications;
import com.captchajobs.core.internal.ops.OperatorQueries;
import com.captchajobs.core.internal.store.SolveRepository;
import com.captchajobs.core.internal.time.DatabaseClock;

/**
 * A started node: what the Java API is made of, its worker (null on a node that only enqueues), and
 * every part to look up and stop.
 *
 * @param schema the schema of every table
 * @param notifications outcomes notified by PostgreSQL (LISTEN/NOTIFY)
 * @param operatorQueries the operator's reads and requeues
 */
public record Engine(
    Schema schema,
    DatabaseClock clock,
    SolveRepository repository,
    SolveNotifications notifications,
    SolveEnqueuer enqueuer,
    OperatorQueries operatorQueries,
    WorkerParts worker,
    Parts parts) {}
