package com.captchajobs.core.internal.db;

/**
 * The session-level advisory lock every worker holds for its whole life, keyed {@code (SPACE,
 * hashtext(<its JobRunr server id>))}: taken by the upkeep's {@code NodeLiveness}, read from {@code
 * pg_locks} by the gate's {@code FleetGate.liveServers}. It lives here, below both rooms, so that
 * neither depends on the other for it.
 */
public final class LivenessLock {

  /** The first key of every liveness lock (the second is {@code hashtext(<server id>)}). */
  public static final int SPACE = 0x434A4C56; // "CJLV"

  private LivenessLock() {}
}
