package com.captchajobs.core.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.captchajobs.core.client.CaptchaType;
import java.math.BigDecimal;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A provider beside the primary on its own: its defaults, its rules, what it shows. */
@Tag("unit")
class ProviderSettingsTest {

  private static final String KEY = "backbackbackbackbackbackbackback";

  private static ProviderSettings.Builder backup() {
    return ProviderSettings.builder()
        .name("backup")
        .baseUrl("https://backup.example")
        .apiKey(KEY)
        .threads(10);
  }

  @Test
  void aBackupStartsAtTheDefaultsWithNoPriceAndNoBudget() {
    ProviderSettings p = backup().build();

    assertThat(p.role()).isEqualTo(ProviderSettings.Role.BACKUP);
    assertThat(p.overflowAfter()).isEqualTo(Duration.ofSeconds(30));
    assertThat(p.prices()).isEmpty();
    assertThat(p.priceOfOne(CaptchaType.TURNSTILE)).isEmpty();
    assertThat(p.dailyBudget()).isNull();
    assertThat(p.toBuilder().build()).isEqualTo(p);
  }

  @Test
  void aPricePerThousandMakesThePriceOfOneSolveAndABudgetOfZeroIsNoCap() {
    ProviderSettings p =
        backup()
            .price(CaptchaType.TURNSTILE, new BigDecimal("1.45"))
            .dailyBudget(BigDecimal.ZERO)
            .build();

    assertThat(p.priceOfOne(CaptchaType.TURNSTILE)).contains(new BigDecimal("0.00145"));
    assertThat(p.priceOfOne(CaptchaType.RECAPTCHA_V2)).isEmpty();
    assertThat(p.dailyBudget()).isNull();
  }

  @Test
  void eachRequiredValueIsRefusedNamingItsBuilderMethod() {
    assertThatThrownBy(() -> backup().baseUrl(null).build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("ProviderSettings.baseUrl(String) is required");
    assertThatThrownBy(() -> backup().apiKey(" ").build())
        .hasMessageStartingWith("ProviderSettings.apiKey(String) is required");
    assertThatThrownBy(() -> backup().threads(0).build())
        .hasMessageStartingWith("ProviderSettings.threads(int) must be at least 1");
    assertThatThrownBy(() -> backup().price(CaptchaType.IMAGE, new BigDecimal("-1")).build())
        .hasMessageStartingWith("ProviderSettings.price(CaptchaType, BigDecimal) must be zero");
    assertThatThrownBy(() -> backup().dailyBudget(new BigDecimal("-5")).build())
        .hasMessageStartingWith("ProviderSettings.dailyBudget(BigDecimal) must be zero");
  }

  @Test
  void thePrimarysNameAndANameNoPropertyCanHoldAreRefused() {
    assertThatThrownBy(() -> backup().name("captchaai").build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("not 'captchaai'");
    assertThatThrownBy(() -> backup().name("Back Up").build())
        .hasMessageStartingWith("ProviderSettings.name(String) must be");
  }

  @Test
  void neitherToStringNorARefusalShowsTheKey() {
    ProviderSettings p = backup().build();

    assertThat(p.toString()).doesNotContain(KEY).contains(p.keyFingerprint());
    assertThat(p.keyFingerprint()).hasSize(16);
    assertThatThrownBy(() -> backup().threads(-1).build())
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(KEY));
  }
}
