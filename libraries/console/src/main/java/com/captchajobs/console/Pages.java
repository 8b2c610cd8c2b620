package com.captchajobs.console;

import static com.captchajobs.console.Html.esc;
import static com.captchajobs.console.Html.url;

import com.captchajobs.console.ConsoleQueries.CodeCount;
import com.captchajobs.console.ConsoleQueries.Event;
import com.captchajobs.console.ConsoleQueries.Filter;
import com.captchajobs.console.ConsoleQueries.Page;
import com.captchajobs.console.ConsoleQueries.SolveDetail;
import com.captchajobs.console.ConsoleQueries.SolveLine;
import com.captchajobs.core.model.BreakerRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The console's pages as HTML, from what the queries read. Pure functions of their arguments, so
 * that they are tested without a server; every value from the database goes through {@link
 * Html#esc}.
 */
final class Pages {

  static final List<String> STATUSES =
      List.of(
          "QUEUED", "WAITING_FOR_THREAD", "SUBMITTED", "SOLVED", "CLAIMED", "EXPIRED", "FAILED");
  static final List<String> TYPES =
      java.util.Arrays.stream(com.captchajobs.core.client.CaptchaType.values())
          .map(Enum::name)
          .toList();

  private Pages() {}

  /** The overview as first served; {@code console.js} then refreshes it from the JSON. */
  static String overview(Overview o) {
    StringBuilder m = new StringBuilder();
    m.append("<p class=\"live\">Live: refreshed every 2 s. <span id=\"updated\">")
        .append("as of ")
        .append(Html.timeTag(o.gauges().at()))
        .append("</span></p>");
    m.append(
        "<section aria-labelledby=\"now-h\"><h2 id=\"now-h\">Fleet now</h2><dl class=\"tiles\">");
    tile(m, "in-flight", "Solves in flight", String.valueOf(o.gauges().inFlight()));
    tile(m, "capacity", "Fleet cap (threads)", String.valueOf(o.gauges().capacity()));
    tile(
        m,
        "working",
        "Provider's working threads",
        o.gauges().workingThreads() == null ? "–" : String.valueOf(o.gauges().workingThreads()));
    tile(m, "waiting", "Solves waiting", String.valueOf(o.gauges().waiting()));
    tile(m, "p50", "Enqueue → solved p50 (15 min)", Html.seconds(o.latency().p50Seconds()));
    tile(m, "p95", "Enqueue → solved p95 (15 min)", Html.seconds(o.latency().p95Seconds()));
    ConsoleQueries.AnswersMinute last = o.lastFullMinute();
    tile(m, "push-rate", "Answers by push (last minute)", String.valueOf(last.push()));
    tile(m, "poll-rate", "Answers by poll (last minute)", String.valueOf(last.poll()));
    m.append("</dl></section>");
    m.append(
        "<section aria-labelledby=\"chart-h\"><h2 id=\"chart-h\">Last 15 minutes: in flight, cap,"
            + " working threads</h2><div id=\"chart\" class=\"chart\">"
            + "<svg role=\"img\" aria-labelledby=\"chart-t\" viewBox=\"0 0 720 200\">"
            + "<title id=\"chart-t\">Solves in flight, fleet cap and provider's working threads"
            + "</title></svg></div><p class=\"legend\"><span class=\"k inflight\"></span> in flight"
            + " <span class=\"k cap\"></span> fleet cap <span class=\"k working\"></span> provider's"
            + " working threads</p></section>");
    m.append(
        "<section aria-labelledby=\"answers-h\"><h2 id=\"answers-h\">Answers per minute, by push"
            + " and by poll</h2><div id=\"answers-chart\" class=\"chart\"><svg role=\"img\""
            + " aria-labelledby=\"answers-t\" viewBox=\"0 0 720 140\"><title id=\"answers-t\">"
            + "Answers per minute by push and by poll</title></svg></div><p class=\"legend\">"
            + "<span class=\"k push\"></span> push <span class=\"k poll\"></span> poll</p>"
            + "</section>");
    m.append("<section aria-labelledby=\"providers-h\"><h2 id=\"providers-h\">Providers</h2>")
        .append("<div id=\"providers\">")
        .append(ProviderTable.html(o.providers()))
        .append("</div></section>");
    m.append("<section aria-labelledby=\"breakers-h\"><h2 id=\"breakers-h\">Breakers</h2>")
        .append("<div id=\"breakers\">")
        .append(breakers(o.breakers()))
        .append("</div></section>");
    m.append(
            "<section aria-labelledby=\"failures-h\"><h2 id=\"failures-h\">Failures by code, last"
                + " hour</h2><div id=\"failures\">")
        .append(failures(o.failures()))
        .append("</div></section>");
    m.append(
            "<section aria-labelledby=\"reports-h\"><h2 id=\"reports-h\">Bad-report rate by type,"
                + " last hour</h2><div id=\"reports\">")
        .append(reports(o.badReports()))
        .append("</div></section>");
    return Html.page("Overview", Html.Nav.OVERVIEW, m.toString(), "/console/static/console.js");
  }

  private static void tile(StringBuilder m, String id, String label, String value) {
    m.append("<div><dt>")
        .append(esc(label))
        .append("</dt><dd id=\"")
        .append(id)
        .append("\">")
        .append(esc(value))
        .append("</dd></div>");
  }

  static String breakers(List<BreakerRow> rows) {
    if (rows.isEmpty()) {
      return "<p>No key's breaker ever opened.</p>";
    }
    StringBuilder t =
        new StringBuilder(
            "<table><caption class=\"sr\">Breakers by key fingerprint</caption><thead><tr>"
                + "<th scope=\"col\">Key fingerprint</th><th scope=\"col\">State</th>"
                + "<th scope=\"col\">Code</th><th scope=\"col\">Reason</th>"
                + "<th scope=\"col\">Opened</th><th scope=\"col\">Action</th></tr></thead><tbody>");
    for (BreakerRow b : rows) {
      t.append("<tr><td><code>")
          .append(esc(b.keyFingerprint()))
          .append("</code></td><td>")
          .append(b.open() ? "<strong class=\"bad\">OPEN</strong>" : "closed")
          .append("</td><td>")
          .append(esc(b.errorCode()))
          .append("</td><td>")
          .append(esc(b.reason()))
          .append("</td><td>")
          .append(Html.timeTag(b.openedAt()))
          .append("</td><td>")
          .append(
              b.open()
                  ? Html.namedButton(
                      "/console/breakers/close",
                      "Close breaker",
                      "Close breaker of key " + b.keyFingerprint(),
                      "danger",
                      "fingerprint",
                      b.keyFingerprint())
                  : "")
          .append("</td></tr>");
    }
    return t.append("</tbody></table>").toString();
  }

  static String failures(List<CodeCount> rows) {
    if (rows.isEmpty()) {
      return "<p>No solve failed in the last hour.</p>";
    }
    StringBuilder t =
        new StringBuilder(
            "<table><caption class=\"sr\">Failed solves of the last hour by code</caption>"
                + "<thead><tr><th scope=\"col\">Code</th><th scope=\"col\">Class</th>"
                + "<th scope=\"col\" class=\"num\">Solves</th></tr></thead><tbody>");
    for (CodeCount c : rows) {
      t.append("<tr><td><a href=\"/console/solves?status=FAILED&amp;code=")
          .append(esc(url(c.code())))
          .append("\">")
          .append(esc(c.code()))
          .append("</a></td><td>")
          .append(esc(c.errorClass()))
          .append("</td><td class=\"num\">")
          .append(c.count())
          .append("</td></tr>");
    }
    return t.append("</tbody></table>").toString();
  }

  static String reports(List<ConsoleQueries.BadReports> rows) {
    if (rows.isEmpty()) {
      return "<p>No answer claimed in the last hour.</p>";
    }
    StringBuilder t =
        new StringBuilder(
            "<table><caption class=\"sr\">Claims and BAD reports of the last hour by type"
                + "</caption><thead><tr><th scope=\"col\">Type</th><th scope=\"col\" class=\"num\">"
                + "Claimed</th><th scope=\"col\" class=\"num\">Reported BAD</th>"
                + "<th scope=\"col\" class=\"num\">Rate</th></tr></thead><tbody>");
    for (ConsoleQueries.BadReports r : rows) {
      t.append("<tr><td>")
          .append(esc(r.type()))
          .append("</td><td class=\"num\">")
          .append(r.claimed())
          .append("</td><td class=\"num\">")
          .append(r.bad())
          .append("</td><td class=\"num")
          .append(r.rate() > 0.10 ? " bad" : "")
          .append("\">")
          .append(String.format(java.util.Locale.ROOT, "%.1f %%", r.rate() * 100))
          .append("</td></tr>");
    }
    return t.append("</tbody></table>").toString();
  }

  /** The solves table with its filter form and keyset links. */
  static String solves(Filter f, Page<SolveLine> page, boolean first) {
    StringBuilder m = new StringBuilder();
    m.append("<form method=\"get\" action=\"/console/solves\" class=\"filters\" role=\"search\"")
        .append(" aria-label=\"Filter solves\">");
    input(m, "client", "Client", f.client());
    select(m, "status", "Status", STATUSES, f.status());
    select(m, "type", "Type", TYPES, f.type());
    input(m, "batch", "Batch", f.batch());
    input(m, "code", "Error code", f.code());
    input(m, "key", "Business key starts with", f.keyPrefix());
    m.append(
        "<button type=\"submit\">Filter</button> <a href=\"/console/solves\">Clear</a></form>");
    m.append(table(page.rows(), "Solves, newest first", false));
    m.append("<nav aria-label=\"Pages\" class=\"pager\">");
    String query = filterQuery(f);
    if (!first) {
      m.append("<a href=\"/console/solves").append(query.isEmpty() ? "" : "?" + esc(query));
      m.append("\">Newest</a> ");
    }
    if (page.next() != null) {
      m.append("<a rel=\"next\" href=\"/console/solves?")
          .append(esc(query.isEmpty() ? "" : query + "&"))
          .append("after=")
          .append(page.next().encode())
          .append("\">Older solves</a>");
    } else {
      m.append("<span>No older solves.</span>");
    }
    m.append("</nav>");
    return Html.page("Solves", Html.Nav.SOLVES, m.toString(), null);
  }

  static String filterQuery(Filter f) {
    List<String> parts = new ArrayList<>();
    add(parts, "client", f.client());
    add(parts, "status", f.status());
    add(parts, "type", f.type());
    add(parts, "batch", f.batch());
    add(parts, "code", f.code());
    add(parts, "key", f.keyPrefix());
    return String.join("&", parts);
  }

  private static void add(List<String> parts, String name, String value) {
    if (value != null) {
      parts.add(name + "=" + url(value));
    }
  }

  private static void input(StringBuilder m, String name, String label, String value) {
    m.append("<label for=\"f-")
        .append(name)
        .append("\">")
        .append(esc(label))
        .append("</label><input id=\"f-")
        .append(name)
        .append("\" name=\"")
        .append(name)
        .append("\" value=\"")
        .append(esc(value))
        .append("\" maxlength=\"200\">");
  }

  private static void select(
      StringBuilder m, String name, String label, List<String> options, String value) {
    m.append("<label for=\"f-")
        .append(name)
        .append("\">")
        .append(esc(label))
        .append("</label><select id=\"f-")
        .append(name)
        .append("\" name=\"")
        .append(name)
        .append("\"><option value=\"\">any</option>");
    for (String o : options) {
      m.append("<option")
          .append(o.equals(value) ? " selected" : "")
          .append('>')
          .append(esc(o))
          .append("</option>");
    }
    m.append("</select>");
  }

  /** A table of solves; with {@code requeue}, a Requeue button on each. */
  static String table(List<SolveLine> rows, String caption, boolean requeue) {
    if (rows.isEmpty()) {
      return "<p id=\"no-solves\">No solve matches.</p>";
    }
    StringBuilder t =
        new StringBuilder("<table id=\"solves\"><caption>")
            .append(esc(caption))
            .append(
                "</caption><thead><tr><th scope=\"col\">Created</th><th scope=\"col\">Business"
                    + " key</th><th scope=\"col\">Client</th><th scope=\"col\">Type</th>"
                    + "<th scope=\"col\">Status</th><th scope=\"col\">Error code</th>"
                    + "<th scope=\"col\">Batch</th><th scope=\"col\">Provider</th>")
            .append(requeue ? "<th scope=\"col\">Action</th>" : "")
            .append("</tr></thead><tbody>");
    for (SolveLine r : rows) {
      t.append("<tr><td>")
          .append(Html.timeTag(r.createdAt()))
          .append("</td><td><a href=\"/console/solves/")
          .append(r.id())
          .append("\">")
          .append(esc(r.businessKey()))
          .append("</a></td><td>")
          .append(esc(r.client()))
          .append("</td><td>")
          .append(esc(r.type()))
          .append("</td><td>")
          .append(esc(r.status()))
          .append("</td><td>")
          .append(esc(r.errorCode()))
          .append("</td><td>")
          .append(esc(r.batch()))
          .append("</td><td>")
          .append(esc(r.provider()))
          .append("</td>");
      if (requeue) {
        t.append("<td>")
            .append(
                Html.namedButton(
                    "/console/dead/requeue",
                    "Requeue",
                    "Requeue " + r.businessKey(),
                    "",
                    "id",
                    r.id().toString()))
            .append("</td>");
      }
      t.append("</tr>");
    }
    return t.append("</tbody></table>").toString();
  }

  /** One solve: its fields and its timeline. */
  static String solve(SolveDetail s, List<Event> recorded) {
    StringBuilder m = new StringBuilder("<dl class=\"fields\">");
    field(m, "Id", s.id().toString());
    field(m, "Business key", s.businessKey());
    field(m, "Client", s.client());
    field(m, "Type", s.type());
    field(m, "Status", s.status());
    field(m, "Batch", s.batch());
    field(m, "Provider", s.provider());
    field(m, "Priority", String.valueOf(s.priority()));
    field(m, "Current task id", s.taskId());
    field(m, "Submissions", String.valueOf(s.submits()));
    field(m, "Polls", String.valueOf(s.polls()));
    field(m, "Answer came by", s.answeredVia());
    field(m, "Error", s.errorCode() == null ? null : s.errorCode() + " (" + s.errorClass() + ")");
    field(
        m,
        "Requeues",
        s.requeues()
            + (s.requeuedErrorCode() == null ? "" : ", last after " + s.requeuedErrorCode()));
    field(
        m,
        "Report",
        s.reportVerdict() == null ? null : s.reportVerdict() + ", delivery " + s.reportDelivery());
    field(m, "Webhook", s.hasCallback() ? "yes" : "no");
    m.append("</dl>");
    if ("FAILED".equals(s.status())) {
      m.append(Html.button("/console/dead/requeue", "Requeue", "", "id", s.id().toString()));
    }
    m.append("<h2>Timeline</h2><ol class=\"timeline\">");
    for (Event e : timeline(s, recorded)) {
      m.append("<li><span class=\"when\">")
          .append(Html.timeTag(e.at()))
          .append(" <span class=\"rel\">")
          .append(esc(Html.since(s.createdAt(), e.at())))
          .append("</span></span> <strong class=\"kind kind-")
          .append(esc(e.kind()))
          .append("\">")
          .append(esc(e.kind()))
          .append("</strong> ")
          .append(esc(e.detail()))
          .append("</li>");
    }
    m.append("</ol>");
    if (s.jobId() != null) {
      m.append("<p><a href=\"/dashboard/jobs/")
          .append(s.jobId())
          .append(
              "\">Its last job in JobRunr's dashboard</a> (job names carry the business key).</p>");
    }
    return Html.page("Solve " + s.businessKey(), Html.Nav.NONE, m.toString(), null);
  }

  /** The row's own instants and the recorded events, in time order. */
  static List<Event> timeline(SolveDetail s, List<Event> recorded) {
    List<Event> all = new ArrayList<>(recorded);
    all.add(new Event(s.createdAt(), "enqueued", "by client " + s.client()));
    if (s.solvedAt() != null) {
      all.add(
          new Event(
              s.solvedAt(),
              "solved",
              s.answeredVia() == null ? "" : "answer came by " + s.answeredVia()));
    }
    if ("FAILED".equals(s.status())) {
      all.add(
          new Event(
              s.updatedAt(),
              "failed",
              s.errorCode()
                  + (s.errorClass() == null
                      ? ""
                      : " (" + s.errorClass().toLowerCase(java.util.Locale.ROOT) + ")")));
    }
    if (s.claimedAt() != null) {
      all.add(new Event(s.claimedAt(), "claimed", ""));
    }
    if (s.reportedAt() != null) {
      all.add(
          new Event(
              s.reportedAt(),
              "reported",
              s.reportVerdict()
                  + (s.reportDelivery() == null ? "" : ", delivery " + s.reportDelivery())));
    }
    all.sort(
        Comparator.comparing(Event::at, Comparator.nullsLast(Comparator.<Instant>naturalOrder())));
    return all;
  }

  private static void field(StringBuilder m, String label, String value) {
    m.append("<div><dt>")
        .append(esc(label))
        .append("</dt><dd>")
        .append(value == null || value.isEmpty() ? "–" : esc(value))
        .append("</dd></div>");
  }

  /** Dead solves by code; with a code, its solves and their Requeue buttons. */
  static String dead(List<CodeCount> codes, String code, Page<SolveLine> page) {
    StringBuilder m = new StringBuilder();
    if (codes.isEmpty()) {
      m.append("<p>No dead solve.</p>");
    } else {
      m.append(
          "<table id=\"dead-codes\"><caption>FAILED solves by code</caption><thead><tr>"
              + "<th scope=\"col\">Code</th><th scope=\"col\" class=\"num\">Solves</th>"
              + "<th scope=\"col\">Actions</th></tr></thead><tbody>");
      for (CodeCount c : codes) {
        m.append("<tr><td><a href=\"/console/dead?code=")
            .append(esc(url(c.code())))
            .append("\">")
            .append(esc(c.code()))
            .append("</a></td><td class=\"num\">")
            .append(c.count())
            .append("</td><td>")
            .append(
                Html.button(
                    "/console/dead/requeue-code",
                    "Requeue all " + c.code() + "…",
                    "",
                    "code",
                    c.code()))
            .append("</td></tr>");
      }
      m.append("</tbody></table>");
    }
    if (code != null && page != null) {
      m.append("<h2>Dead solves with code ").append(esc(code)).append("</h2>");
      m.append(table(page.rows(), "FAILED with " + code + ", newest first", true));
      if (page.next() != null) {
        m.append(
                "<nav aria-label=\"Pages\" class=\"pager\"><a rel=\"next\" href=\"/console/dead?code=")
            .append(esc(url(code)))
            .append("&amp;after=")
            .append(page.next().encode())
            .append("\">Older</a></nav>");
      }
    }
    return Html.page("Dead solves", Html.Nav.DEAD, m.toString(), null);
  }

  /** Asks before requeueing every FAILED solve of a code. */
  static String confirm(String code, long count) {
    String m =
        "<p>Requeue all <strong>"
            + count
            + "</strong> FAILED solves with code <strong>"
            + esc(code)
            + "</strong>? Each is submitted afresh with a fresh deadline; a solve whose proxy or"
            + " cookies were removed when it failed cannot be rebuilt and stays FAILED.</p>"
            + Html.button(
                "/console/dead/requeue-code",
                "Yes, requeue them",
                "danger",
                "code",
                code,
                "confirm",
                "yes")
            + " <a href=\"/console/dead\">Cancel</a>";
    return Html.page("Requeue " + code + "?", Html.Nav.DEAD, m, null);
  }

  /** What an action did, with links back. */
  static String outcome(String title, String message, String back) {
    String m =
        "<p role=\"status\" id=\"outcome\" class=\"outcome\">"
            + esc(message)
            + "</p><p><a href=\""
            + esc(back)
            + "\">Back</a></p>";
    return Html.page(title, Html.Nav.NONE, m, null);
  }

  /** What the overview shows, read at one instant. */
  record Overview(
      ConsoleQueries.Gauges gauges,
      List<ConsoleQueries.AnswersMinute> answers,
      ConsoleQueries.Latency latency,
      List<BreakerRow> breakers,
      List<ConsoleProviders.Line> providers,
      List<CodeCount> failures,
      List<ConsoleQueries.BadReports> badReports) {

    /** The last whole minute's answers (zero when none). */
    ConsoleQueries.AnswersMinute lastFullMinute() {
      Instant minute =
          gauges.at().truncatedTo(java.time.temporal.ChronoUnit.MINUTES).minusSeconds(60);
      return answers.stream()
          .filter(a -> a.minute().equals(minute))
          .findFirst()
          .orElse(new ConsoleQueries.AnswersMinute(minute, 0, 0));
    }
  }
}
