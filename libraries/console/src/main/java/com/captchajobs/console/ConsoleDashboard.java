package com.captchajobs.console;

import com.captchajobs.console.server.DashboardLimits;
import com.captchajobs.console.server.DashboardServer;
import com.captchajobs.core.internal.dashboard.DashboardServing;
import com.captchajobs.core.settings.DashboardSettings;
import java.util.List;
import org.jobrunr.dashboard.server.HttpExchangeHandler;

/**
 * The dashboard the core finds with {@link java.util.ServiceLoader} ({@code
 * META-INF/services/com.captchajobs.core.internal.dashboard.DashboardServing}): JobRunr's pages
 * over our jobs and the operator console at {@link Console#PATH}, on one {@link DashboardServer}
 * within {@link DashboardLimits#DEFAULT}, behind its basic authentication and cross-site refusal.
 */
public final class ConsoleDashboard implements DashboardServing {

  @Override
  public DashboardServer start(DashboardSettings settings, Sources sources) {
    List<HttpExchangeHandler> console =
        Console.handlers(
            sources.dataSource(), sources.schema(), sources.operations(), sources.jobs());
    try {
      return DashboardServer.start(
          sources.storage(),
          sources.jsonMapper(),
          settings.address(),
          settings.port(),
          settings.username(),
          settings.password(),
          DashboardLimits.DEFAULT,
          console);
    } catch (RuntimeException e) {
      console.forEach(HttpExchangeHandler::close); // the server never took them
      throw e;
    }
  }
}
