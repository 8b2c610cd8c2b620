package com.captchajobs.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.simulator.SimulatorStats;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plot of a made-up run: a PNG of the documented size showing each of its layers. */
@Tag("unit")
class PlotTest {

  @TempDir Path out;

  @Test
  void aRunIsDrawnAsAPngWithItsLinesBacklogAndChaosMarks() throws Exception {
    long t0 = 1_000_000;
    List<Sampler.Sample> samples = new ArrayList<>();
    for (int s = 0; s <= 60; s++) {
      samples.add(
          new Sampler.Sample(t0 + s * 1000L, Math.min(10, s), s < 30 ? 50 - s : 0, 5 * s, s / 20));
    }
    List<long[]> inFlight = new ArrayList<>();
    for (int s = 0; s <= 60; s += 2) {
      inFlight.add(new long[] {t0 + s * 1000L, Math.min(10, s)});
    }
    SimulatorStats stats =
        new SimulatorStats(
            0, 10, 300, Map.of(), 0, Map.of(), 900, 300, 3.0, 1, 2, 3, 1, 60, inFlight);
    Chaos.Events chaos =
        new Chaos.Events(
            List.of(new Chaos.Kill(t0 + 20_000, "w2")),
            List.of(new long[] {t0 + 40_000, t0 + 42_000}),
            List.of(),
            List.of());
    RunData run =
        new RunData(
            BenchOptions.defaults(),
            "default, 3 workers",
            t0,
            t0 + 60_000,
            false,
            stats,
            List.of(),
            List.of(),
            List.of(),
            Map.of(),
            Map.of(),
            0,
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            0,
            0,
            List.of(),
            samples,
            List.of(),
            0,
            0,
            0,
            chaos,
            List.of(),
            Map.of(),
            RunData.Enqueues.NONE);

    Path png = out.resolve("default.png");
    Plot.writePng(run, png);

    assertThat(Files.readAllBytes(png)).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image.getWidth()).isEqualTo(Plot.WIDTH);
    assertThat(image.getHeight()).isEqualTo(Plot.HEIGHT);
    assertThat(colours(image))
        .as("provider, gate slots, cap, solved, backlog and restart colours")
        .contains(0x2ca02c, 0xff7f0e, 0xd62728, 0x9467bd, 0xfff3d6, 0x1f77b4);
  }

  @Test
  void aRunWithABackupDrawsTheBackupsTasksInFlightBesideThePrimarys() throws Exception {
    long t0 = BackupFiguresTest.T0;
    List<long[]> backup =
        List.of(
            new long[] {t0, 0},
            new long[] {t0 + 12_000, 1},
            new long[] {t0 + 12_500, 2},
            new long[] {t0 + 22_000, 0});
    Path png = out.resolve("chaos.png");

    Plot.writePng(BackupFiguresTest.run("5.00", backup), png);

    assertThat(colours(ImageIO.read(png.toFile()))).as("the backup's teal").contains(0x17becf);
    Plot.writePng(
        ProviderFiguresTest.withoutEngineRows(BackupFiguresTest.run("5.00", backup)), png);
    assertThat(colours(ImageIO.read(png.toFile())))
        .as("without a backup: no backup line, no legend for it")
        .doesNotContain(0x17becf);
  }

  private static java.util.Set<Integer> colours(BufferedImage image) {
    java.util.Set<Integer> seen = new java.util.HashSet<>();
    for (int x = 0; x < image.getWidth(); x++) {
      for (int y = 0; y < image.getHeight(); y++) {
        seen.add(image.getRGB(x, y) & 0xffffff);
      }
    }
    return seen;
  }
}
