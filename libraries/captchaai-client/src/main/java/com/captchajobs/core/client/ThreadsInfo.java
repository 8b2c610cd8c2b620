package com.captchajobs.core.client;

/** The key's thread plan (res.php {@code threadsinfo}); counts every client using the key. */
public record ThreadsInfo(int threads, int workingThreads) {

  /** Threads not busy right now; never negative. */
  public int freeThreads() {
    return Math.max(0, threads - workingThreads);
  }
}
