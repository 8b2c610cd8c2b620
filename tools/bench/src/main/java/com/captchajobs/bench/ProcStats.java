package com.captchajobs.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** CPU time and peak resident memory of a Linux process, and the machine's CPU counters. */
final class ProcStats {

  /** Kernel clock ticks per second ({@code getconf CLK_TCK}; 100 on Linux x86-64). */
  static final double TICKS_PER_SECOND = 100.0;

  private ProcStats() {}

  /** One reading: user + system CPU seconds and VmHWM (peak RSS) in MiB. */
  record Reading(double cpuSeconds, double peakRssMiB) {
    static final Reading NONE = new Reading(0, 0);
  }

  static Reading read(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // after "pid (comm) ": f[0] = state (field 3); utime = field 14, stime = field 15
      double cpu = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS_PER_SECOND;
      double hwm = 0;
      for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
        if (line.startsWith("VmHWM:")) {
          hwm = Long.parseLong(line.replaceAll("\\D+", "")) / 1024.0;
        }
      }
      return new Reading(cpu, hwm);
    } catch (IOException | RuntimeException e) {
      return Reading.NONE;
    }
  }

  /** CPU seconds of a process and its live descendants (PostgreSQL's backends). */
  static double treeCpuSeconds(long pid) {
    if (pid <= 0) {
      return 0;
    }
    // the postmaster's cutime + cstime hold the CPU of backends that already exited
    double sum = read(pid).cpuSeconds() + reapedChildrenCpuSeconds(pid);
    for (ProcessHandle child :
        ProcessHandle.of(pid).map(h -> h.descendants().toList()).orElse(List.of())) {
      sum += read(child.pid()).cpuSeconds();
    }
    return sum;
  }

  private static double reapedChildrenCpuSeconds(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(f[13]) + Long.parseLong(f[14])) / TICKS_PER_SECOND;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** [busy ticks, total ticks] of the whole machine from /proc/stat. */
  static long[] machineTicks() {
    try {
      String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      long total = 0;
      for (int i = 1; i < f.length && i <= 8; i++) {
        total += Long.parseLong(f[i]);
      }
      long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
      return new long[] {total - idle, total};
    } catch (IOException | RuntimeException e) {
      return new long[] {0, 0};
    }
  }

  /** Sleeps outside of tests' synchronisation: pacing of samplers and health checks. */
  /** Sleeps for {@code d}, or less once {@code stop} says so (checked every 100 ms). */
  static void pause(Duration d, java.util.function.BooleanSupplier stop) {
    long until = System.currentTimeMillis() + d.toMillis();
    while (!stop.getAsBoolean() && System.currentTimeMillis() < until) {
      pause(Duration.ofMillis(Math.min(100, Math.max(1, until - System.currentTimeMillis()))));
    }
  }

  static void pause(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
