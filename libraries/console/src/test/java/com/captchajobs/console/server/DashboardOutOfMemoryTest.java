package com.captchajobs.console.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attack of issue 27 on a real dashboard in a JVM of its own with a 256 MB heap: four
 * cross-site POSTs declaring 2 GB and sending an endless body, two more without a cross-site header
 * (one declared, one chunked). Every body byte the attacker gets rid of counts as taken, kernel
 * buffers included.
 */
class DashboardOutOfMemoryTest {

  private static final long MB = 1024 * 1024;
  private static final long ATTEMPTED = 512 * MB; // twice the heap, per connection

  @TempDir Path dir;
  private Process dashboard;

  @AfterEach
  void stop() {
    if (dashboard != null) {
      dashboard.destroyForcibly();
    }
  }

  @Test
  void endlessBodiesAtADashboardWith256MbOfHeapAreRefusedUnreadAndItStillServesItsUsers()
      throws Exception {
    Path log = dir.resolve("dashboard.log");
    dashboard =
        new ProcessBuilder(
                javaExecutable(),
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                DashboardUnderAttack.class.getName())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    int port = awaitPort(log);
    InetSocketAddress to = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    String host = "Host: 127.0.0.1:" + port;

    ExecutorService attackers = Executors.newFixedThreadPool(6);
    List<Future<RawHttp.Flood>> crossSite = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      crossSite.add(
          attackers.submit(
              () ->
                  RawHttp.flood(
                      to,
                      "POST /api/jobs/00000000-0000-0000-0000-000000000001/requeue HTTP/1.1\r\n"
                          + host
                          + "\r\nOrigin: http://evil.example\r\nContent-Length: 2000000000",
                      ATTEMPTED,
                      false)));
    }
    Future<RawHttp.Flood> declared =
        attackers.submit(
            () ->
                RawHttp.flood(
                    to,
                    "POST /api/jobs HTTP/1.1\r\n" + host + "\r\nContent-Length: 2000000000",
                    ATTEMPTED,
                    false));
    Future<RawHttp.Flood> chunked =
        attackers.submit(
            () ->
                RawHttp.flood(
                    to,
                    "POST /api/jobs HTTP/1.1\r\n" + host + "\r\nTransfer-Encoding: chunked",
                    ATTEMPTED,
                    true));
    List<Long> taken = new ArrayList<>();
    for (Future<RawHttp.Flood> f : crossSite) {
      RawHttp.Flood flood = f.get();
      assertThat(flood.statusLine()).startsWith("HTTP/1.1 403");
      taken.add(flood.bytesTaken());
    }
    assertThat(declared.get().statusLine()).startsWith("HTTP/1.1 413");
    taken.add(declared.get().bytesTaken());
    RawHttp.Flood chunkedFlood = chunked.get();
    assertThat(chunkedFlood.statusLine()).startsWith("HTTP/1.1 413");
    taken.add(chunkedFlood.bytesTaken());
    attackers.shutdown();

    System.out.println("dashboard attack: body bytes taken per connection " + taken);
    assertThat(taken).allSatisfy(bytes -> assertThat(bytes).isLessThanOrEqualTo(64 * MB));
    assertThat(dashboard.isAlive()).isTrue();
    assertThat(
            RawHttp.request(
                to,
                "GET /api/jobs?state=FAILED HTTP/1.1\r\n"
                    + host
                    + "\r\nAuthorization: "
                    + RawHttp.basic(DashboardUnderAttack.USER, DashboardUnderAttack.PASSWORD),
                ""))
        .startsWith("HTTP/1.1 200");
    assertThat(Files.readString(log, StandardCharsets.UTF_8))
        .doesNotContain("OutOfMemoryError")
        .doesNotContain("evil.example");
  }

  private int awaitPort(Path log) {
    Pattern port = Pattern.compile("port=(\\d+)");
    int[] found = new int[1];
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              assertThat(dashboard.isAlive()).as("the dashboard JVM is running").isTrue();
              Matcher m = port.matcher(read(log));
              if (m.find()) {
                found[0] = Integer.parseInt(m.group(1));
                return true;
              }
              return false;
            });
    return found[0];
  }

  private static String read(Path log) throws IOException {
    return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
  }

  private static String javaExecutable() {
    return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
  }
}
