package com.captchajobs.bench;

import java.util.List;
import java.util.Locale;

/**
 * An SVG of a run, written by hand: provider in flight (simulator) and gate slots held over time
 * against the cap and the plan, backlog periods shaded, solves ended (cumulative, right axis), kill
 * -9 and PostgreSQL restarts as vertical marks.
 */
final class Plot {

  private static final int W = 960;
  private static final int H = 420;
  private static final int L = 60;
  private static final int R = 70;
  private static final int T = 40;
  private static final int B = 50;

  private Plot() {}

  static String svg(Figures f) {
    RunData run = f.run();
    long t0 = run.startMillis();
    double span = Math.max(1, (run.endMillis() - t0) / 1000.0);
    int cap = run.options().threads();
    int plan = run.options().planThreads();
    int yMax = Math.max(plan, run.stats().maxInFlight()) + 1;
    int n = run.options().solves();
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">%n",
            W,
            H));
    s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    s.append(
        text(
            L,
            20,
            "CaptchaJobs bench, "
                + esc(run.label())
                + ": in flight over time (cap C = "
                + cap
                + ")",
            "start",
            14));
    // backlog shading
    List<Sampler.Sample> samples = run.samples();
    for (int i = 0; i + 1 < samples.size(); i++) {
      if (samples.get(i).backlog() > 0) {
        int j = i;
        while (j + 1 < samples.size() && samples.get(j).backlog() > 0) {
          j++; // one shaded rectangle per backlog period
        }
        double x1 = x(samples.get(i).atMillis(), t0, span);
        double x2 = x(samples.get(j).atMillis(), t0, span);
        s.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#fff3d6\"/>%n",
                x1,
                T,
                Math.max(0.5, x2 - x1),
                H - T - B));
        i = j - 1;
      }
    }
    // axes and grid
    for (int k = 0; k <= 5; k++) {
      double v = yMax * k / 5.0;
      double y = y(v, yMax);
      s.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>%n",
              L,
              y,
              W - R,
              y));
      s.append(text(L - 6, y + 4, String.format(Locale.ROOT, "%.0f", v), "end", 11));
      s.append(
          text(W - R + 6, y + 4, String.format(Locale.ROOT, "%.0f", n * k / 5.0), "start", 11));
    }
    for (int k = 0; k <= 10; k++) {
      double xs = L + (W - L - R) * k / 10.0;
      s.append(
          text(xs, H - B + 16, String.format(Locale.ROOT, "%.0f", span * k / 10), "middle", 11));
    }
    s.append(text((L + W - R) / 2.0, H - 12, "seconds since the first enqueue", "middle", 12));
    s.append(
        text(
            14,
            T + (H - T - B) / 2.0,
            "in flight",
            "middle",
            12,
            "rotate(-90 14 " + (T + (H - T - B) / 2) + ")"));
    s.append(
        text(
            W - 14,
            T + (H - T - B) / 2.0,
            "solves ended",
            "middle",
            12,
            "rotate(90 " + (W - 14) + " " + (T + (H - T - B) / 2) + ")"));
    s.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>%n",
            L,
            T,
            W - L - R,
            H - T - B));
    // cap and plan
    hline(s, cap, yMax, "#d62728", "6,4");
    hline(s, plan, yMax, "#999", "2,4");
    // chaos marks
    for (Chaos.Kill k : run.chaos().kills()) {
      vline(s, x(k.atMillis(), t0, span), "#000", "kill -9 " + k.worker());
    }
    for (Chaos.Outage o : run.chaos().outages()) {
      double x0 = x(o.fromMillis(), t0, span);
      double x1 = x(o.toMillis(), t0, span);
      s.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" fill-opacity=\"0.12\"><title>%s outage</title></rect>%n",
              x0,
              T,
              Math.max(1, x1 - x0),
              H - T - B,
              o.kind().equals(Chaos.Outage.DATABASE) ? "#1f77b4" : "#d62728",
              o.kind()));
      s.append(text(x0 + 3, T + 12, o.kind() + " outage", "start", 10));
    }
    for (long[] r : run.chaos().postgresRestarts()) {
      vline(s, x(r[0], t0, span), "#1f77b4", "PostgreSQL restart");
    }
    // simulator in flight (step)
    StringBuilder sim = new StringBuilder();
    double lastY = y(0, yMax);
    boolean started = false;
    for (long[] p : run.stats().inFlightSeries()) {
      if (p[0] < t0 || p[0] > run.endMillis()) {
        if (p[0] < t0) {
          lastY = y(p[1], yMax);
        }
        continue;
      }
      double px = x(p[0], t0, span);
      if (!started) {
        sim.append(String.format(Locale.ROOT, "M%.1f,%.1f ", (double) L, lastY));
        started = true;
      }
      sim.append(String.format(Locale.ROOT, "H%.1f V%.1f ", px, y(p[1], yMax)));
    }
    if (started) {
      sim.append(String.format(Locale.ROOT, "H%d", W - R));
      s.append("<path d=\"")
          .append(sim)
          .append("\" fill=\"none\" stroke=\"#2ca02c\" stroke-width=\"1.2\"/>\n");
    }
    // gate slots held and outcomes (samples)
    StringBuilder held = new StringBuilder();
    StringBuilder solved = new StringBuilder();
    StringBuilder failed = new StringBuilder();
    for (Sampler.Sample p : samples) {
      double px = x(p.atMillis(), t0, span);
      String cmd = held.length() == 0 ? "M" : "L";
      held.append(String.format(Locale.ROOT, "%s%.1f,%.1f ", cmd, px, y(p.slotsHeld(), yMax)));
      solved.append(String.format(Locale.ROOT, "%s%.1f,%.1f ", cmd, px, yRight(p.solved(), n)));
      failed.append(String.format(Locale.ROOT, "%s%.1f,%.1f ", cmd, px, yRight(p.failed(), n)));
    }
    s.append("<path d=\"")
        .append(held)
        .append("\" fill=\"none\" stroke=\"#ff7f0e\" stroke-width=\"1\" opacity=\"0.8\"/>\n");
    s.append("<path d=\"")
        .append(solved)
        .append(
            "\" fill=\"none\" stroke=\"#9467bd\" stroke-width=\"1.5\" stroke-dasharray=\"1,0\"/>\n");
    s.append("<path d=\"")
        .append(failed)
        .append("\" fill=\"none\" stroke=\"#8c564b\" stroke-width=\"1.5\"/>\n");
    // legend
    String[][] legend = {
      {"#2ca02c", "provider in flight (simulator)"},
      {"#ff7f0e", "gate slots held"},
      {"#d62728", "cap C"},
      {"#999", "plan threads"},
      {"#9467bd", "solved (right axis)"},
      {"#8c564b", "failed (right axis)"},
      {"#fff3d6", "backlog"}
    };
    int lx = L + 8;
    for (String[] e : legend) {
      s.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"4\" fill=\"%s\"/>%n",
              lx,
              T + 8,
              e[0]));
      s.append(text(lx + 18, T + 13, e[1], "start", 11));
      lx += 22 + e[1].length() * 6;
    }
    s.append("</svg>\n");
    return s.toString();
  }

  private static void hline(StringBuilder s, int v, int yMax, String color, String dash) {
    double y = y(v, yMax);
    s.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"%s\" stroke-width=\"1.5\"/>%n",
            L,
            y,
            W - R,
            y,
            color,
            dash));
  }

  private static void vline(StringBuilder s, double x, String color, String title) {
    s.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1\"><title>%s</title></line>%n",
            x,
            T,
            x,
            H - B,
            color,
            esc(title)));
  }

  private static double x(long millis, long t0, double span) {
    return L + (W - L - R) * Math.max(0, Math.min(1, (millis - t0) / 1000.0 / span));
  }

  private static double y(double v, int yMax) {
    return H - B - (H - T - B) * v / yMax;
  }

  private static double yRight(double v, int n) {
    return H - B - (H - T - B) * v / Math.max(1, n);
  }

  private static String text(double x, double y, String t, String anchor, int size) {
    return text(x, y, t, anchor, size, null);
  }

  private static String text(
      double x, double y, String t, String anchor, int size, String transform) {
    return String.format(
        Locale.ROOT,
        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"%s>%s</text>%n",
        x,
        y,
        anchor,
        size,
        transform == null ? "" : " transform=\"" + transform + "\"",
        t);
  }

  private static String esc(String t) {
    return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
