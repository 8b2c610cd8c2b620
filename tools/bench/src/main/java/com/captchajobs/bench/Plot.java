package com.captchajobs.bench;

import com.captchajobs.simulator.SimulatorStats;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Stroke;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The plot of a run, drawn by JFreeChart and written as PNG: provider in flight (simulator, a step
 * line) and gate slots held over time against the cap and the plan threads (left axis), solves
 * solved and failed (cumulative, right axis), backlog periods shaded, kill -9 and PostgreSQL
 * restarts as vertical marks. The time axis is seconds since the first enqueue.
 */
final class Plot {

  static final int WIDTH = 1200;
  static final int HEIGHT = 520;

  private static final Color PROVIDER = new Color(0x2c, 0xa0, 0x2c);
  private static final Color HELD = new Color(0xff, 0x7f, 0x0e);
  private static final Color CAP = new Color(0xd6, 0x27, 0x28);
  private static final Color PLAN = new Color(0x99, 0x99, 0x99);
  private static final Color SOLVED = new Color(0x94, 0x67, 0xbd);
  private static final Color FAILED = new Color(0x8c, 0x56, 0x4b);
  private static final Color BACKLOG = new Color(0xff, 0xf3, 0xd6);
  private static final Color KILL = Color.BLACK;
  private static final Color RESTART = new Color(0x1f, 0x77, 0xb4);
  private static final Color BACKUP = new Color(0x17, 0xbe, 0xcf);

  static {
    // the bench draws off screen; without this, AWT may look for a display
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  private Plot() {}

  /** Writes the plot of a run as a PNG file. */
  static void writePng(RunData run, Path file) throws IOException {
    ChartUtils.saveChartAsPNG(file.toFile(), chart(run), WIDTH, HEIGHT);
  }

  static JFreeChart chart(RunData run) {
    long t0 = run.startMillis();
    double span = Math.max(1, (run.endMillis() - t0) / 1000.0);
    int cap = run.options().threads();
    int plan = run.options().planThreads();
    int solves = run.options().solves();

    XYSeriesCollection inFlight = new XYSeriesCollection();
    inFlight.addSeries(
        providerInFlight(run.stats(), t0, run.endMillis(), "provider in flight (simulator)"));
    XYSeries held = new XYSeries("gate slots held", false);
    XYSeries solved = new XYSeries("solved (right axis)", false);
    XYSeries failed = new XYSeries("failed (right axis)", false);
    for (Sampler.Sample s : run.samples()) {
      double x = seconds(s.atMillis(), t0);
      held.add(x, s.slotsHeld());
      solved.add(x, s.solved());
      failed.add(x, s.failed());
    }
    inFlight.addSeries(held);
    inFlight.addSeries(level("cap C = " + cap, cap, span));
    inFlight.addSeries(level("plan threads = " + plan, plan, span));
    if (run.backup().configured()) {
      XYSeries backup =
          providerInFlight(
              run.backup().stats(), t0, run.endMillis(), "backup in flight (backup simulator)");
      inFlight.addSeries(backup);
    }

    NumberAxis time = new NumberAxis("seconds since the first enqueue");
    time.setRange(0, span);
    NumberAxis left = new NumberAxis("in flight");
    left.setRange(0, Math.max(plan, run.stats().maxInFlight()) + 1);
    left.setStandardTickUnits(NumberAxis.createIntegerTickUnits());

    XYStepRenderer steps = new XYStepRenderer();
    steps.setSeriesPaint(0, PROVIDER);
    steps.setSeriesStroke(0, new BasicStroke(1.2f));
    steps.setSeriesPaint(1, HELD);
    steps.setSeriesStroke(1, new BasicStroke(1.0f));
    steps.setSeriesPaint(2, CAP);
    steps.setSeriesStroke(2, dashed(1.5f, 6, 4));
    steps.setSeriesPaint(3, PLAN);
    steps.setSeriesStroke(3, dashed(1.5f, 2, 4));
    steps.setSeriesPaint(4, BACKUP);
    steps.setSeriesStroke(4, new BasicStroke(1.2f));
    XYPlot plot = new XYPlot(inFlight, time, left, steps);

    XYSeriesCollection ended = new XYSeriesCollection();
    ended.addSeries(solved);
    ended.addSeries(failed);
    NumberAxis right = new NumberAxis("solves ended");
    right.setRange(0, Math.max(1, solves));
    plot.setRangeAxis(1, right);
    plot.setDataset(1, ended);
    plot.mapDatasetToRangeAxis(1, 1);
    XYLineAndShapeRenderer lines = new XYLineAndShapeRenderer(true, false);
    lines.setSeriesPaint(0, SOLVED);
    lines.setSeriesStroke(0, new BasicStroke(1.5f));
    lines.setSeriesPaint(1, FAILED);
    lines.setSeriesStroke(1, new BasicStroke(1.5f));
    plot.setRenderer(1, lines);

    shadeBacklog(plot, run.samples(), t0);
    for (Chaos.Kill k : run.chaos().kills()) {
      plot.addDomainMarker(mark(seconds(k.atMillis(), t0), KILL, "kill -9 " + k.worker()));
    }
    for (long[] r : run.chaos().postgresRestarts()) {
      plot.addDomainMarker(mark(seconds(r[0], t0), RESTART, "PostgreSQL restart"));
    }
    for (Chaos.Outage o : run.chaos().outages()) {
      IntervalMarker outage =
          new IntervalMarker(seconds(o.fromMillis(), t0), seconds(o.toMillis(), t0));
      Color tint = o.kind().equals(Chaos.Outage.DATABASE) ? RESTART : KILL;
      outage.setPaint(new Color(tint.getRed(), tint.getGreen(), tint.getBlue(), 40));
      outage.setLabel(o.kind() + " outage");
      plot.addDomainMarker(outage, Layer.BACKGROUND);
    }

    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(new Color(0xdd, 0xdd, 0xdd));
    plot.setRangeGridlinePaint(new Color(0xdd, 0xdd, 0xdd));
    LegendItemCollection legend = plot.getLegendItems();
    legend.add(new LegendItem("backlog", BACKLOG));
    plot.setFixedLegendItems(legend);

    JFreeChart chart =
        new JFreeChart(
            "CaptchaJobs bench, " + run.label() + ": in flight over time (cap C = " + cap + ")",
            new Font(Font.SANS_SERIF, Font.BOLD, 15),
            plot,
            true);
    chart.setBackgroundPaint(Color.WHITE);
    LegendTitle legendTitle = chart.getLegend();
    legendTitle.setPosition(RectangleEdge.TOP);
    return chart;
  }

  /** The simulator's in-flight step series within [t0, end], starting from its value at t0. */
  private static XYSeries providerInFlight(SimulatorStats stats, long t0, long end, String name) {
    XYSeries series = new XYSeries(name, false);
    long atStart = 0;
    long last = 0;
    for (long[] p : stats.inFlightSeries()) {
      if (p[0] < t0) {
        atStart = p[1];
        continue;
      }
      if (p[0] > end) {
        break;
      }
      if (series.getItemCount() == 0) {
        series.add(0, atStart);
      }
      series.add(seconds(p[0], t0), p[1]);
      last = p[1];
    }
    if (series.getItemCount() == 0) {
      series.add(0, atStart);
      last = atStart;
    }
    series.add(seconds(end, t0), last);
    return series;
  }

  private static XYSeries level(String name, int value, double span) {
    XYSeries series = new XYSeries(name, false);
    series.add(0, value);
    series.add(span, value);
    return series;
  }

  /** One shaded interval per backlog period (consecutive samples with solves waiting). */
  private static void shadeBacklog(XYPlot plot, List<Sampler.Sample> samples, long t0) {
    for (int i = 0; i + 1 < samples.size(); i++) {
      if (samples.get(i).backlog() > 0) {
        int j = i;
        while (j + 1 < samples.size() && samples.get(j).backlog() > 0) {
          j++;
        }
        IntervalMarker backlog =
            new IntervalMarker(
                seconds(samples.get(i).atMillis(), t0), seconds(samples.get(j).atMillis(), t0));
        backlog.setPaint(BACKLOG);
        plot.addDomainMarker(backlog, Layer.BACKGROUND);
        i = j - 1;
      }
    }
  }

  private static ValueMarker mark(double x, Color color, String label) {
    ValueMarker marker = new ValueMarker(x, color, new BasicStroke(1.0f));
    marker.setLabel(label);
    marker.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
    marker.setLabelPaint(color);
    marker.setLabelBackgroundColor(new Color(255, 255, 255, 0));
    marker.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
    marker.setLabelTextAnchor(TextAnchor.TOP_LEFT);
    return marker;
  }

  private static Stroke dashed(float width, float on, float off) {
    return new BasicStroke(
        width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {on, off}, 0f);
  }

  private static double seconds(long millis, long t0) {
    return Math.max(0, (millis - t0) / 1000.0);
  }
}
