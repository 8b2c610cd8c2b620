package com.captchajobs.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.settings.DashboardSettings;
import com.captchajobs.core.settings.PingbackSettings;
import com.captchajobs.core.settings.RetentionSettings;
import com.captchajobs.core.settings.WebhookSettings;
import com.captchajobs.core.settings.WorkerSettings;
import java.beans.IntrospectionException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The property names are derived, not listed: every setting of every group names a property that
 * the one class binding the group really has, so a new setting of a group needs no entry anywhere.
 */
@Tag("unit")
class PropertyNamesTest {

  @Test
  void everySettingOfEveryGroupNamesAPropertyItsBindingHas() throws IntrospectionException {
    assertEverySettingIsBound(
        WebhookSettings.Builder.class,
        WebhookProperties.class,
        "captchajobs.webhook.",
        // bound per client: captchajobs.api.clients.<name>.webhook-secret
        Set.of("clientSecret"));
    assertEverySettingIsBound(
        WorkerSettings.Builder.class,
        CaptchaJobsProperties.Worker.class,
        "captchajobs.worker.",
        Set.of());
    assertEverySettingIsBound(
        DashboardSettings.Builder.class,
        CaptchaJobsProperties.Dashboard.class,
        "captchajobs.dashboard.",
        Set.of());
    assertEverySettingIsBound(
        RetentionSettings.Builder.class, CaptchaJobsProperties.class, "captchajobs.", Set.of());
    assertEverySettingIsBound(
        PingbackSettings.Builder.class, CaptchaAiProperties.class, "captchaai.", Set.of());
  }

  @Test
  void theBuilderMethodThatTurnsTheDashboardOnNamesItsSwitch() {
    assertThat(PropertyNames.of("dashboard")).isEqualTo("captchajobs.dashboard.enabled");
  }

  @Test
  void aSettingOfNoGroupTheStarterBindsNamesNoProperty() {
    assertThat(PropertyNames.of("NoSuchSettings.timeout")).isNull();
    assertThat(PropertyNames.of("dataSource")).isNull();
  }

  private static void assertEverySettingIsBound(
      Class<?> groupBuilder, Class<?> binding, String bindingPrefix, Set<String> boundElsewhere)
      throws IntrospectionException {
    String group = groupBuilder.getEnclosingClass().getSimpleName();
    Set<String> bound =
        Arrays.stream(Introspector.getBeanInfo(binding).getPropertyDescriptors())
            .filter(p -> p.getWriteMethod() != null)
            .map(PropertyDescriptor::getName)
            .map(name -> bindingPrefix + kebab(name))
            .collect(Collectors.toSet());
    List<String> settings =
        Arrays.stream(groupBuilder.getDeclaredMethods())
            .filter(m -> Modifier.isPublic(m.getModifiers()))
            .map(Method::getName)
            .filter(name -> !name.equals("build") && !boundElsewhere.contains(name))
            .distinct()
            .toList();
    assertThat(settings).as(group + "'s settings").isNotEmpty();
    for (String setting : settings) {
      assertThat(PropertyNames.of(group + "." + setting)).as(group + "." + setting).isIn(bound);
    }
  }

  private static String kebab(String camel) {
    return camel.replaceAll("([A-Z])", "-$1").toLowerCase();
  }
}
