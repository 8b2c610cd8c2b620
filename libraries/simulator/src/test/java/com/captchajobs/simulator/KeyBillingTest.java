package com.captchajobs.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The money side of a key, with no server: prices, the spend per UTC day and type, the balance. */
@Tag("unit")
class KeyBillingTest {
  static final long LAST_MS_OF_DEC_5 = Instant.parse("2026-12-05T23:59:59.999Z").toEpochMilli();
  static final long FIRST_MS_OF_DEC_6 = Instant.parse("2026-12-06T00:00:00Z").toEpochMilli();

  static KeyBilling priced() {
    return new KeyBilling(
        KeyPlan.threads(3).price("TURNSTILE", "1.45").price("RECAPTCHA_V2", "2.99"));
  }

  @Test
  void aPricedKeysSpendAddsUpPerTypeAndUtcDay() {
    KeyBilling billing = priced();
    for (int i = 0; i < 3; i++) {
      assertThat(billing.charge("TURNSTILE", LAST_MS_OF_DEC_5)).isEqualByComparingTo("0.00145");
    }
    assertThat(billing.charge("RECAPTCHA_V2", LAST_MS_OF_DEC_5)).isEqualByComparingTo("0.00299");
    billing.charge("TURNSTILE", FIRST_MS_OF_DEC_6);
    billing.charge("TURNSTILE", FIRST_MS_OF_DEC_6);

    List<SpendRecord> rows = billing.spend("back…");
    assertThat(rows)
        .extracting(SpendRecord::day, SpendRecord::type, SpendRecord::tasks)
        .containsExactly(
            tuple("2026-12-05", "RECAPTCHA_V2", 1L),
            tuple("2026-12-05", "TURNSTILE", 3L),
            tuple("2026-12-06", "TURNSTILE", 2L));
    assertThat(rows.get(0).amount()).isEqualByComparingTo("0.00299");
    assertThat(rows.get(1).amount()).isEqualByComparingTo("0.00435");
    assertThat(rows.get(2).amount()).isEqualByComparingTo("0.0029");
    assertThat(rows).allSatisfy(r -> assertThat(r.keyFingerprint()).isEqualTo("back…"));
    assertThat(billing.spentOn(LocalDate.parse("2026-12-05"))).isEqualByComparingTo("0.00734");
    assertThat(billing.spentOn(LocalDate.parse("2026-12-06"))).isEqualByComparingTo("0.0029");
    assertThat(billing.spentOn(LocalDate.parse("2026-12-07"))).isEqualByComparingTo("0");
  }

  @Test
  void aThousandSolvesCostExactlyThePricePerThousand() {
    KeyBilling billing = priced();
    for (int i = 0; i < 1000; i++) {
      billing.charge("RECAPTCHA_V2", FIRST_MS_OF_DEC_6);
    }
    assertThat(billing.spentOn(LocalDate.parse("2026-12-06"))).isEqualByComparingTo("2.99");
  }

  @Test
  void aKeyBilledByThreadsSpendsNothingAndHasNoSpendRows() {
    KeyBilling billing = new KeyBilling(KeyPlan.threads(5));
    assertThat(billing.charge("TURNSTILE", LAST_MS_OF_DEC_5)).isEqualByComparingTo("0");
    assertThat(billing.spend("capt…")).isEmpty();
    assertThat(billing.spentOn(LocalDate.parse("2026-12-05"))).isEqualByComparingTo("0");
    assertThat(billing.balanceText()).isEqualTo("15.50");
  }

  @Test
  void aTypeWithoutAPriceCostsNothingAtAPricedKey() {
    KeyBilling billing = priced();
    assertThat(billing.charge("IMAGE", LAST_MS_OF_DEC_5)).isEqualByComparingTo("0");
    assertThat(billing.spend("back…")).isEmpty();
  }

  @Test
  void aBalanceThatCannotPayTheNextTaskRefusesItWithZeroBalance() {
    KeyBilling billing =
        new KeyBilling(KeyPlan.threads(3).price("TURNSTILE", "1.45").balance("0.003"));
    billing.checkFunds("TURNSTILE");
    billing.charge("TURNSTILE", LAST_MS_OF_DEC_5);
    billing.checkFunds("TURNSTILE");
    billing.charge("TURNSTILE", LAST_MS_OF_DEC_5);
    assertThat(billing.balanceText()).isEqualTo("0.00010");

    assertThatThrownBy(() -> billing.checkFunds("TURNSTILE"))
        .isInstanceOfSatisfying(
            ApiError.class, e -> assertThat(e.code).isEqualTo("ERROR_ZERO_BALANCE"));
    billing.checkFunds("IMAGE"); // unpriced: costs nothing, the balance is not empty

    billing.setBalance(BigDecimal.ZERO);
    assertThatThrownBy(() -> billing.checkFunds("IMAGE"))
        .isInstanceOfSatisfying(
            ApiError.class, e -> assertThat(e.code).isEqualTo("ERROR_ZERO_BALANCE"));

    billing.reset();
    assertThat(billing.balanceText()).isEqualTo("0.003");
    assertThat(billing.spend("back…")).isEmpty();
  }

  @Test
  void aKeyPlanRefusesAnUnknownTypeANegativePriceOrBalanceNamingTheField() {
    assertThatThrownBy(() -> KeyPlan.threads(1).price("HCAPTCHA", "1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("price type")
        .hasMessageContaining("TURNSTILE")
        .hasMessageContaining("HCAPTCHA");
    assertThatThrownBy(() -> KeyPlan.threads(1).price("TURNSTILE", "-1"))
        .hasMessageContaining("price.TURNSTILE");
    assertThatThrownBy(() -> KeyPlan.threads(1).price("TURNSTILE", "cheap"))
        .hasMessageContaining("price.TURNSTILE")
        .hasMessageContaining("cheap");
    assertThatThrownBy(() -> KeyPlan.threads(1).balance("-0.01")).hasMessageContaining("balance");
    assertThatThrownBy(() -> KeyPlan.threads(-1)).hasMessageContaining("threads");
    assertThatThrownBy(() -> CaptchaAiSimulator.builder().name(" ")).hasMessageContaining("name");
  }

  @Test
  void aKeyPlanShowsItsDefaults() {
    KeyPlan plan = KeyPlan.threads(4);
    assertThat(plan.threads()).isEqualTo(4);
    assertThat(plan.pricesPer1000()).isEmpty();
    assertThat(plan.balance()).isNull();
    assertThat(plan.overCapMode()).isNull();
    assertThat(new KeyBilling(plan).overCapMode(OverCapMode.QUEUE)).isEqualTo(OverCapMode.QUEUE);
    assertThat(
            new KeyBilling(plan.overCapMode(OverCapMode.NO_SLOT_AVAILABLE))
                .overCapMode(OverCapMode.QUEUE))
        .isEqualTo(OverCapMode.NO_SLOT_AVAILABLE);
  }
}
