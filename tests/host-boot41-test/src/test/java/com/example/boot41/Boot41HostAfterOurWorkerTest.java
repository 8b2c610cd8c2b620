package com.example.boot41;

import com.example.hostcontract.StarterWorkerFirstContract;

/**
 * Boot 4.1 + JobRunr 8.7 host with the starter, worker first: a worker node created our schema on a
 * fresh database, then the host starts with no setting at all. The tests are those of {@link
 * StarterWorkerFirstContract}.
 */
class Boot41HostAfterOurWorkerTest extends StarterWorkerFirstContract {

  static final String KEY = "b41after0b41after0b41after0b41af";
  static final String WORKER = "boot41-after-worker";

  Boot41HostAfterOurWorkerTest() {
    super(KEY, WORKER, "b41", Boot41HostApplication.class);
  }
}
