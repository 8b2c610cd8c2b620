package com.captchajobs.core.internal.jobrunr;

import com.captchajobs.core.internal.notify.PushNotice;

/**
 * Told when the engine's {@code SolveJobs} created a job that is ready to run now, so that a worker
 * with idle threads fetches it at once rather than at JobRunr's next poll (see "Dispatch" in
 * docs/architecture.md). A hint only: JobRunr's own poll stays the durable path.
 */
public interface JobsReady {

  /** Does nothing: every job waits for JobRunr's poll or an idle worker thread. */
  JobsReady NONE =
      new JobsReady() {
        @Override
        public void submitReady() {}

        @Override
        public void pollReady() {}

        @Override
        public boolean threadToSpare() {
          return false;
        }
      };

  /** A submit job was enqueued: any node of the fleet may take it. */
  void submitReady();

  /** A poll job was enqueued by a job of this node: this node takes it when a thread frees up. */
  void pollReady();

  /**
   * A push rang (its ring committed) and the job of its fetch is being created: the fleet's workers
   * are told, so that one fetches the answer at its instant outside JobRunr's queue ({@code
   * push.PushedFetches}). A hint only, like the others: the job stays the durable path. Does
   * nothing by default.
   */
  default void pushRang(PushNotice notice) {}

  /**
   * True when this node's job server is running with at least one idle worker thread: a job may
   * then go on with more work in its own thread without holding back jobs waiting to be fetched.
   */
  boolean threadToSpare();
}
