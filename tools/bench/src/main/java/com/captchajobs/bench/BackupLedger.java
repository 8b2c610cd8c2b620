package com.captchajobs.bench;

import com.captchajobs.simulator.PushRecord;
import com.captchajobs.simulator.RequestRecord;
import com.captchajobs.simulator.SpendRecord;
import com.captchajobs.simulator.TaskRecord;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The figures of a run with a backup provider, counted from the two simulators' own records (task
 * records, request logs, push logs, spend) and the harness's enqueue, kill and outage times only,
 * never from the engine's tables. Each simulator's task ids are its own: records are never matched
 * across simulators by id, only by subject (page URL or image hash: the business key).
 */
final class BackupLedger {

  private BackupLedger() {}

  /** One simulator's records: its tasks, request log and push log. */
  record Provider(
      String name, List<TaskRecord> tasks, List<RequestRecord> requests, List<PushRecord> pushes) {

    /** res.php gets per task id. */
    Map<Long, List<RequestRecord>> gets() {
      Map<Long, List<RequestRecord>> out = new HashMap<>();
      for (RequestRecord r : requests) {
        if (r.resGet() && r.taskId() != 0) {
          out.computeIfAbsent(r.taskId(), k -> new ArrayList<>()).add(r);
        }
      }
      return out;
    }
  }

  // ---- solves completed during the outage ----

  /**
   * Solves whose answer reached the engine inside {@code [from, to)}, per provider: solved tasks
   * whose first delivery (the first res.php get that returned the answer, that simulator's request
   * log) lies in the window, counted once per subject.
   */
  static Map<String, Long> completedIn(List<Provider> providers, long from, long to) {
    Map<String, Long> out = new java.util.LinkedHashMap<>();
    Set<String> counted = new HashSet<>();
    for (Provider p : providers) {
      Map<Long, List<RequestRecord>> gets = p.gets();
      long n = 0;
      for (TaskRecord t : p.tasks()) {
        if (!"SOLVED".equals(t.outcome()) || t.subject() == null) {
          continue;
        }
        long d = ProviderLedger.firstDelivery(t, gets.getOrDefault(t.id(), List.of()), List.of());
        if (d >= from && d < to && counted.add(t.subject())) {
          n++;
        }
      }
      out.put(p.name(), n);
    }
    return out;
  }

  // ---- spend ----

  /**
   * A provider's spend from its own spend rows.
   *
   * @param total every row added up
   * @param tasks tasks charged
   * @param byType amount per captcha type
   * @param byDay amount per UTC day
   */
  record Spend(
      BigDecimal total, long tasks, Map<String, BigDecimal> byType, Map<String, BigDecimal> byDay) {

    /** The largest amount of one UTC day; 0 when none. */
    BigDecimal maxDay() {
      return byDay.values().stream().max(Comparator.naturalOrder()).orElse(BigDecimal.ZERO);
    }
  }

  static Spend spend(List<SpendRecord> rows) {
    BigDecimal total = BigDecimal.ZERO;
    long tasks = 0;
    Map<String, BigDecimal> byType = new TreeMap<>();
    Map<String, BigDecimal> byDay = new TreeMap<>();
    for (SpendRecord r : rows) {
      total = total.add(r.amount());
      tasks += r.tasks();
      byType.merge(r.type(), r.amount(), BigDecimal::add);
      byDay.merge(r.day(), r.amount(), BigDecimal::add);
    }
    return new Spend(total, tasks, byType, byDay);
  }

  // ---- pages paid at two providers ----

  /**
   * A business key accepted at one provider and then at another while the first task could still
   * answer.
   *
   * @param first the provider of the earlier task
   * @param second the provider of the later one
   * @param cause why, as far as the first provider's logs and the harness's kills tell ({@link
   *     ProviderLedger.Cause#LOST_REPLY} or {@link ProviderLedger.Cause#KILL}: the engine never
   *     knew the first task; {@link ProviderLedger.Cause#UNEXPLAINED} otherwise)
   */
  record TwoProviders(ProviderLedger.Pair pair, String first, String second) {
    ProviderLedger.Cause cause() {
      return pair.cause();
    }

    String describe() {
      return first + " then " + second + ", " + pair.describe();
    }
  }

  /**
   * Every business key with a task at two providers where the later task was accepted while the
   * earlier one, at the other provider, could still answer: the rules of {@link
   * ProviderLedger#duplicates} applied to the pair with the earlier provider's own logs, a pair
   * they find by design (the earlier task answered an error code or {@code ERROR_WRONG_CAPTCHA_ID},
   * its answer was older than the token lifetime, or it had no answer within the solve timeout)
   * left out. One entry per business key: its first such pair.
   */
  static List<TwoProviders> paidAtTwo(
      List<Provider> providers,
      List<Long> kills,
      Map<String, String> labels,
      Map<String, Duration> tokenLifetimeByMethod,
      Duration solveTimeout) {
    record Tagged(Provider provider, TaskRecord task) {}
    Map<String, List<Tagged>> bySubject = new TreeMap<>();
    // by identity: a record's own hash would walk every task it holds
    Map<Provider, Map<Long, RequestRecord>> created = new IdentityHashMap<>();
    Map<Provider, Map<Long, List<RequestRecord>>> gets = new IdentityHashMap<>();
    Map<Provider, Map<Long, List<PushRecord>>> pushes = new IdentityHashMap<>();
    for (Provider p : providers) {
      for (TaskRecord t : p.tasks()) {
        if (t.subject() != null) {
          bySubject.computeIfAbsent(t.subject(), k -> new ArrayList<>()).add(new Tagged(p, t));
        }
      }
      Map<Long, RequestRecord> in = new HashMap<>();
      p.requests().stream()
          .filter(r -> RequestRecord.IN.equals(r.endpoint()) && r.taskId() != 0)
          .forEach(r -> in.put(r.taskId(), r));
      created.put(p, in);
      gets.put(p, p.gets());
      Map<Long, List<PushRecord>> accepted = new HashMap<>();
      p.pushes().stream()
          .filter(x -> x.status() >= 200 && x.status() < 300)
          .forEach(x -> accepted.computeIfAbsent(x.taskId(), k -> new ArrayList<>()).add(x));
      pushes.put(p, accepted);
    }
    List<TwoProviders> out = new ArrayList<>();
    for (var e : bySubject.entrySet()) {
      List<Tagged> list = new ArrayList<>(e.getValue());
      list.sort(Comparator.comparingLong(x -> x.task().acceptedAt()));
      String key = labels.getOrDefault(e.getKey(), e.getKey());
      TwoProviders found = null;
      for (int j = 1; j < list.size() && found == null; j++) {
        Tagged n = list.get(j);
        for (int i = 0; i < j && found == null; i++) {
          Tagged b = list.get(i);
          if (b.provider() == n.provider()) {
            continue;
          }
          ProviderLedger.Pair pair =
              ProviderLedger.cause(
                  key,
                  b.task(),
                  n.task(),
                  created.get(b.provider()).get(b.task().id()),
                  gets.get(b.provider()).getOrDefault(b.task().id(), List.of()),
                  pushes.get(b.provider()).getOrDefault(b.task().id(), List.of()),
                  kills,
                  tokenLifetimeByMethod.get(b.task().method()),
                  solveTimeout);
          if (pair.cause().kind != ProviderLedger.Kind.BY_DESIGN) {
            found = new TwoProviders(pair, b.provider().name(), n.provider().name());
          }
        }
      }
      if (found != null) {
        out.add(found);
      }
    }
    return out;
  }
}
