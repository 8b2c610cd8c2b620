package com.captchajobs.core.internal.assembly;

import com.captchajobs.core.client.CaptchaAiClient;
import com.captchajobs.core.client.CaptchaType;
import com.captchajobs.core.internal.gate.ProviderLanes;
import com.captchajobs.core.internal.provider.Breaker;
import com.captchajobs.core.internal.provider.PlanCheck;
import com.captchajobs.core.internal.providers.Providers;
import com.captchajobs.core.settings.ProviderSettings;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The providers beside the primary, built once: their clients, breakers, plan checks, lanes. */
final class ProviderWiring {

  private ProviderWiring() {}

  /** How the gate routes to each of them. */
  static List<ProviderLanes.Lane> lanes(List<ProviderSettings> providers) {
    List<ProviderLanes.Lane> lanes = new ArrayList<>();
    for (ProviderSettings p : providers) {
      Map<CaptchaType, BigDecimal> prices = new EnumMap<>(CaptchaType.class);
      p.prices().keySet().forEach(t -> prices.put(t, p.priceOfOne(t).orElseThrow()));
      lanes.add(
          new ProviderLanes.Lane(
              p.name(),
              p.role() == ProviderSettings.Role.BACKUP,
              p.threads(),
              p.keyFingerprint(),
              p.overflowAfter(),
              prices,
              p.dailyBudget()));
    }
    return lanes;
  }

  /**
   * The primary and, each with a client of its own, the others; {@code handOff} runs once the
   * primary is judged down.
   */
  static Providers providers(
      Shared s,
      CaptchaAiClient primary,
      Breaker breaker,
      PlanCheck planCheck,
      ProviderLanes lanes,
      Runnable handOff) {
    List<Providers.Provider> others = new ArrayList<>();
    for (ProviderSettings p : s.settings().providers()) {
      CaptchaAiClient client =
          CaptchaAiClient.builder().apiKey(p.apiKey()).baseUrl(p.baseUrl()).build();
      Breaker own = new Breaker(s.settings().dataSource(), s.schema(), client.keyFingerprint());
      others.add(
          new Providers.Provider(
              p.name(),
              p,
              client,
              own,
              new PlanCheck(client, own, s.clock(), s.settings().solve().providerCheckInterval())));
    }
    return new Providers(
        new Providers.Provider(ProviderLanes.PRIMARY, null, primary, breaker, planCheck),
        others,
        lanes,
        handOff);
  }
}
