package com.captchajobs.core.internal.dashboard;

import com.captchajobs.core.internal.db.Schema;
import com.captchajobs.core.internal.ops.OperatorQueries;
import com.captchajobs.core.internal.steps.SolveJobs;
import com.captchajobs.core.settings.DashboardSettings;
import com.captchajobs.core.settings.InvalidSettingException;
import java.util.Iterator;
import java.util.ServiceLoader;
import javax.sql.DataSource;
import org.jobrunr.storage.StorageProvider;
import org.jobrunr.utils.mapper.JsonMapper;

/**
 * What serves a node's dashboard: JobRunr's pages over our jobs and the operator console, on a port
 * of their own. The core serves no HTTP: the artifact {@value #ARTIFACT} provides the one
 * implementation, found with {@link ServiceLoader} on the core's own class loader, so a node or a
 * guest that leaves the dashboard off carries none of it.
 */
public interface DashboardServing {

  /** The artifact that serves the dashboard. */
  String ARTIFACT = "com.captchajobs:captchajobs-console";

  /**
   * Starts the dashboard; what it returns stops it, with everything it started.
   *
   * @throws RuntimeException when it cannot listen; then it has left nothing running
   */
  AutoCloseable start(DashboardSettings settings, Sources sources);

  /** What the dashboard reads and acts on: our JobRunr's jobs, the solves, requeues, breakers. */
  record Sources(
      DataSource dataSource,
      Schema schema,
      StorageProvider storage,
      JsonMapper jsonMapper,
      OperatorQueries operations,
      SolveJobs jobs) {}

  /**
   * The dashboard's server, from {@value #ARTIFACT} on the class path.
   *
   * @throws InvalidSettingException naming {@code dashboard(int, String, String)} and the artifact
   *     when it is not there
   */
  static DashboardServing require() {
    Iterator<DashboardServing> found =
        ServiceLoader.load(DashboardServing.class, DashboardServing.class.getClassLoader())
            .iterator();
    if (!found.hasNext()) {
      throw new InvalidSettingException(
          "the dashboard ({dashboard(int, String, String)}) is served by "
              + ARTIFACT
              + ", which is not on the class path: add it (captchajobs-bom pins its version) or"
              + " leave the dashboard off");
    }
    return found.next();
  }
}
