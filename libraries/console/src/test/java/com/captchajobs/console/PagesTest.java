package com.captchajobs.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.console.ConsoleQueries.Event;
import com.captchajobs.console.ConsoleQueries.Filter;
import com.captchajobs.console.ConsoleQueries.Page;
import com.captchajobs.console.ConsoleQueries.SolveDetail;
import com.captchajobs.console.ConsoleQueries.SolveLine;
import com.captchajobs.core.model.BreakerRow;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class PagesTest {

  static final Instant T0 = Instant.parse("2026-12-04T20:00:00Z");
  static final UUID ID = UUID.fromString("28661783-bef7-489e-8176-b0e92c703c4f");

  @Test
  void everyValueFromTheDatabaseIsEscapedInTextAndAttributes() {
    assertThat(Html.esc("<script>alert('x')</script>&\""))
        .isEqualTo("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;");
    String html =
        Pages.table(
            List.of(
                new SolveLine(
                    ID,
                    "c<1>",
                    "key\"><img src=x>",
                    "TURNSTILE",
                    "FAILED",
                    "E<",
                    "b'",
                    "p<2>",
                    T0,
                    T0)),
            "caption <b>",
            true);

    assertThat(html)
        .doesNotContain("<img", "<1>", "<b>", "<2>")
        .contains("key&quot;&gt;&lt;img src=x&gt;", "c&lt;1&gt;", "caption &lt;b&gt;", "p&lt;2&gt;")
        .contains("aria-label=\"Requeue key&quot;&gt;&lt;img src=x&gt;\">Requeue</button>");
  }

  @Test
  void theSolvesTableLinksEachRowToItsSolvePageAndTheNextPageByCursor() {
    Cursor next = new Cursor(T0, ID);
    String html =
        Pages.solves(
            new Filter("acme", "FAILED", null, null, "ERROR_X", "ord-"),
            new Page<>(
                List.of(
                    new SolveLine(
                        ID,
                        "acme",
                        "ord-1",
                        "TURNSTILE",
                        "FAILED",
                        "ERROR_X",
                        null,
                        "backup2c",
                        T0,
                        T0)),
                next),
            true);

    assertThat(html)
        .contains("href=\"/console/solves/" + ID + "\">ord-1</a>")
        .contains(
            "href=\"/console/solves?client=acme&amp;status=FAILED&amp;code=ERROR_X&amp;key=ord-&amp;after="
                + next.encode()
                + "\">Older solves</a>")
        .contains("<option selected>FAILED</option>")
        .contains("<label for=\"f-key\">Business key starts with</label>")
        .doesNotContain("OFFSET", "page=");
  }

  @Test
  void theSolvesTableAndTheSolvePageNameTheProviderOfEachSolve() {
    String table =
        Pages.solves(
            Filter.none(),
            new Page<>(
                List.of(
                    new SolveLine(
                        ID,
                        "acme",
                        "ord-1",
                        "TURNSTILE",
                        "SOLVED",
                        null,
                        null,
                        "backup2c",
                        T0,
                        T0)),
                null),
            true);
    String page = Pages.solve(detail("SOLVED", null, null), List.of());

    assertThat(table).contains("<th scope=\"col\">Provider</th>", "<td>backup2c</td>");
    assertThat(page).contains("<dt>Provider</dt><dd>backup2c</dd>");
  }

  @Test
  void theLastPageSaysSoAndAnEmptyOneSaysNothingMatches() {
    String html = Pages.solves(Filter.none(), new Page<>(List.of(), null), false);

    assertThat(html).contains("No solve matches.", "No older solves.", ">Newest</a>");
  }

  @Test
  void theTimelineMergesTheRowsInstantsWithTheRecordedEventsInTimeOrder() {
    SolveDetail s = detail("FAILED", "ERROR_CAPTCHA_UNSOLVABLE", "UNSOLVABLE");
    List<Event> events =
        Pages.timeline(
            s,
            List.of(
                new Event(T0.plusSeconds(1), "submit", "submission 1, task 7, node w1"),
                new Event(
                    T0.plusSeconds(3), "poll", "submission 1, poll 1: ERROR_CAPTCHA_UNSOLVABLE"),
                new Event(T0.plusSeconds(2), "push", "submission 1")));

    assertThat(events)
        .extracting(Event::kind)
        .containsExactly("enqueued", "submit", "push", "poll", "failed");
    assertThat(events.get(4).detail()).isEqualTo("ERROR_CAPTCHA_UNSOLVABLE (unsolvable)");
  }

  @Test
  void aFailedSolveHasARequeueButtonAndItsLastJobLinksToJobRunrsDashboard() {
    String html = Pages.solve(detail("FAILED", "E", "PERMANENT"), List.of());

    assertThat(html)
        .contains(
            "action=\"/console/dead/requeue\"",
            "name=\"id\" value=\"" + ID + "\"",
            ">Requeue</button>")
        .contains("href=\"/dashboard/jobs/" + ID + "\"");
    assertThat(Pages.solve(detail("SOLVED", null, null), List.of()))
        .doesNotContain(">Requeue</button>");
  }

  @Test
  void anOpenBreakerHasACloseButtonAndAClosedOneNone() {
    String open =
        Pages.breakers(List.of(new BreakerRow("abc123", true, "ERROR_KEY", "why", T0, null)));
    String closed =
        Pages.breakers(List.of(new BreakerRow("abc123", false, "ERROR_KEY", "why", T0, null)));

    assertThat(open)
        .contains(
            "OPEN",
            "action=\"/console/breakers/close\"",
            "value=\"abc123\"",
            ">Close breaker</button>");
    assertThat(closed).contains("closed").doesNotContain("Close breaker");
  }

  @Test
  void requeueAllOfACodeAsksFirstWithTheCountAndAConfirmingButton() {
    String html = Pages.confirm("ERROR_PROXY_BANNED", 42);

    assertThat(html)
        .contains(
            "Requeue all <strong>42</strong> FAILED solves with code <strong>ERROR_PROXY_BANNED")
        .contains(
            "name=\"confirm\" value=\"yes\"",
            ">Yes, requeue them</button>",
            "href=\"/console/dead\">Cancel");
  }

  @Test
  void everyPageHasOneMainRegionASkipLinkAndTheLinkToJobRunrsDashboard() {
    String html = Pages.outcome("Requeued", "done", "/console/dead");

    assertThat(html)
        .startsWith("<!doctype html>")
        .contains("<html lang=\"en\">", "href=\"#main\">Skip to content", "<main id=\"main\"")
        .contains("<a href=\"/dashboard\">JobRunr dashboard</a>", "role=\"status\"")
        .doesNotContain("http://", "https://");
  }

  @Test
  void aFormIsReadUpToItsCapAndALargerOneIsRefused() throws Exception {
    byte[] ok =
        Requests.readCapped(new java.io.ByteArrayInputStream(new byte[16 * 1024]), 16 * 1024);
    assertThat(ok).hasSize(16 * 1024);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                Requests.readCapped(
                    new java.io.ByteArrayInputStream(new byte[16 * 1024 + 1]), 16 * 1024))
        .isInstanceOf(Requests.BodyTooLargeException.class);
    assertThat(Requests.params("id=a%20b&id=second&code=E_1&bad=%zz"))
        .containsEntry("id", "a b")
        .containsEntry("code", "E_1")
        .doesNotContainKey("bad");
  }

  @Test
  void aKeyPrefixIsMatchedLiterallyNotAsAPattern() {
    assertThat(ConsoleQueries.likePrefix("a_b%c\\")).isEqualTo("a\\_b\\%c\\\\%");
  }

  private static SolveDetail detail(String status, String code, String cls) {
    return new SolveDetail(
        ID,
        "acme",
        "ord-1",
        "TURNSTILE",
        status,
        "7",
        code,
        cls,
        null,
        "backup2c",
        0,
        1,
        1,
        0,
        null,
        "SOLVED".equals(status) ? "push" : null,
        null,
        null,
        false,
        ID,
        T0,
        T0.plusSeconds(1),
        "SOLVED".equals(status) ? T0.plusSeconds(4) : null,
        null,
        null,
        null,
        T0.plusSeconds(4));
  }
}
