package com.captchajobs.core.internal.egress;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.internal.egress.AddressClassifier.Embedding;
import com.captchajobs.core.internal.egress.AddressClassifier.Range;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The classifier's tables, one test per row, and each IPv6 form judged by the IPv4 it embeds. */
@Tag("unit")
class AddressClassifierTest {

  static Stream<Range> v4Ranges() {
    return AddressClassifier.V4_RANGES.stream();
  }

  static Stream<Range> v6Ranges() {
    return AddressClassifier.V6_RANGES.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("v4Ranges")
  void everyIpv4RangeOfTheTableIsRefusedFromItsFirstToItsLastAddress(Range range) {
    assertThat(AddressClassifier.whyNotPublic(range.network())).contains(range.why());
    assertThat(AddressClassifier.whyNotPublic(last(range))).contains(range.why());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("v6Ranges")
  void everyIpv6RangeOfTheTableIsRefusedFromItsFirstToItsLastAddress(Range range) {
    assertThat(AddressClassifier.whyNotPublic(range.network())).contains(range.why());
    assertThat(AddressClassifier.whyNotPublic(last(range))).contains(range.why());
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "192.88.99.1, 6to4 relay anycast",
    "192.88.98.255, ",
    "192.88.100.0, ",
    "8.8.8.8, ",
    "100.63.255.255, ",
    "100.128.0.0, ",
    "172.32.0.1, ",
    "2606:4700:4700::1111, ",
    "2001:db9::1, "
  })
  void theAddressesJustOutsideARangeArePublic(String address, String why) {
    assertThat(AddressClassifier.whyNotPublic(AddressClassifier.literal(address)).orElse(null))
        .isEqualTo(why);
  }

  /** One row per embedding form: a private IPv4 inside is refused, a public one is not. */
  @ParameterizedTest(name = "{0}: {1} refused, {2} public")
  @CsvSource({
    "IPv4-mapped,      ::ffff:10.0.0.1,                     ::ffff:8.8.8.8",
    "IPv4-translated,  ::ffff:0:10.0.0.1,                   ::ffff:0:8.8.8.8",
    "IPv4-compatible,  ::10.0.0.1,                          ::8.8.8.8",
    "NAT64 well-known, 64:ff9b::169.254.169.254,            64:ff9b::8.8.8.8",
    "NAT64 local-use,  64:ff9b:1::10.0.0.1,                 ",
    "6to4,             2002:c058:6301::1,                   2002:808:808::1",
    "Teredo,           2001:0:808:808:8000:63bf:f5ff:fffe,  2001:0:808:808:8000:63bf:f7f7:f7f7",
    "Teredo,           2001:0:a00:1:8000:63bf:f7f7:f7f7,    2001:0:808:808:8000:63bf:f7f7:f7f7",
    "ISATAP,           2606:4700:4700:1::5efe:10.0.0.1,     2606:4700:4700:1::5efe:8.8.8.8",
    "ISATAP,           2606:4700:4700:1:200:5efe:127.0.0.1, 2606:4700:4700:1:200:5efe:8.8.8.8"
  })
  void anIpv6FormThatEmbedsAnIpv4IsJudgedByTheIpv4ItEmbeds(
      String form, String refused, String accepted) {
    assertThat(AddressClassifier.whyNotPublic(AddressClassifier.literal(refused)))
        .as(refused)
        .hasValueSatisfying(why -> assertThat(why).contains(form));
    if (accepted != null) {
      assertThat(AddressClassifier.whyNotPublic(AddressClassifier.literal(accepted)))
          .as(accepted)
          .isEmpty();
    }
  }

  @Test
  void theLocalUseNat64PrefixIsRefusedEvenAroundAPublicIpv4() {
    assertThat(AddressClassifier.whyNotPublic(AddressClassifier.literal("64:ff9b:1::8.8.8.8")))
        .hasValueSatisfying(why -> assertThat(why).contains("NAT64 local-use"));
  }

  @Test
  void aLinkLocalIsatapAddressStaysRefusedWhateverItEmbeds() {
    assertThat(AddressClassifier.whyNotPublic(AddressClassifier.literal("fe80::5efe:8.8.8.8")))
        .contains("link-local");
  }

  @Test
  void everyEmbeddingFormOfTheTableHasARowAbove() throws Exception {
    CsvSource rows =
        getClass()
            .getDeclaredMethod(
                "anIpv6FormThatEmbedsAnIpv4IsJudgedByTheIpv4ItEmbeds",
                String.class,
                String.class,
                String.class)
            .getAnnotation(CsvSource.class);
    Set<String> tested =
        Arrays.stream(rows.value())
            .map(row -> row.substring(0, row.indexOf(',')).strip())
            .collect(Collectors.toSet());
    assertThat(tested)
        .containsExactlyInAnyOrderElementsOf(
            AddressClassifier.EMBEDDINGS.stream().map(Embedding::form).toList());
  }

  private static byte[] last(Range range) {
    byte[] b = range.network().clone();
    for (int bit = range.bits(); bit < b.length * 8; bit++) {
      b[bit / 8] |= (byte) (0x80 >>> (bit % 8));
    }
    return b;
  }
}
