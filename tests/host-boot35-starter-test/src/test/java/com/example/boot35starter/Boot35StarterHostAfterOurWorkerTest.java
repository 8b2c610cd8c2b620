package com.example.boot35starter;

import com.example.hostcontract.StarterWorkerFirstContract;

/**
 * Boot 3.5 + JobRunr 8.4 host with the Boot 3 starter, worker first: a worker node created our
 * schema on a fresh database, then the host starts with no setting at all. The tests are those of
 * {@link StarterWorkerFirstContract}.
 */
class Boot35StarterHostAfterOurWorkerTest extends StarterWorkerFirstContract {

  static final String KEY = "b35saftr0b35saftr0b35saftr0b35sa";
  static final String WORKER = "boot35-starter-after-worker";

  Boot35StarterHostAfterOurWorkerTest() {
    super(KEY, WORKER, "b35s", Boot35StarterHostApplication.class);
  }
}
