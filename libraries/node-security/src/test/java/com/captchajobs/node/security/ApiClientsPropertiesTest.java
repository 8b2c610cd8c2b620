package com.captchajobs.node.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The tokens and roles a node accepts, from {@code captchajobs.api.*}: what a token authenticates
 * as, and that every bad value is refused at startup with a message naming its key (and never the
 * token).
 */
@Tag("unit")
class ApiClientsPropertiesTest {

  static final String CLIENT_TOKEN = "client-token-0123456789";
  static final String OPERATOR_TOKEN = "operator-token-0123456789";

  static ApiClientsProperties.Client client(String token, String... roles) {
    ApiClientsProperties.Client c = new ApiClientsProperties.Client();
    c.setToken(token);
    if (roles.length > 0) {
      c.setRoles(List.of(roles));
    }
    return c;
  }

  static ApiClientsProperties properties(Map<String, ApiClientsProperties.Client> clients) {
    ApiClientsProperties p = new ApiClientsProperties();
    p.setClients(new LinkedHashMap<>(clients));
    return p;
  }

  @Test
  void aShorthandTokenAuthenticatesAsTheDefaultClientWithTheClientRoleOnly() {
    ApiClientsProperties p = new ApiClientsProperties();
    p.setTokens(List.of(" " + CLIENT_TOKEN + " ", ""));

    ApiClients clients = p.toClients();

    ApiClient found = clients.authenticate(CLIENT_TOKEN).orElseThrow();
    assertThat(found.name()).isEqualTo(ApiClientsProperties.TOKENS_CLIENT);
    assertThat(found.roles()).containsExactly(ApiRole.CLIENT);
    assertThat(clients.any(ApiRole.OPERATOR)).isFalse();
  }

  @Test
  void eachNamedClientsTokensAuthenticateAsThatClientWithItsRolesAndNoOtherTokenDoes() {
    ApiClientsProperties.Client both = client(OPERATOR_TOKEN, "Operator", " client ");
    both.setTokens(List.of("operator-second-token-01234"));
    ApiClients clients = properties(Map.of("shop", client(CLIENT_TOKEN), "ops", both)).toClients();

    assertThat(clients.authenticate(CLIENT_TOKEN).orElseThrow().roles())
        .containsExactly(ApiRole.CLIENT);
    assertThat(clients.authenticate(OPERATOR_TOKEN).orElseThrow().name()).isEqualTo("ops");
    assertThat(clients.authenticate("operator-second-token-01234").orElseThrow().roles())
        .containsExactlyInAnyOrder(ApiRole.CLIENT, ApiRole.OPERATOR);
    assertThat(clients.authenticate(CLIENT_TOKEN + "x")).isEmpty();
    assertThat(clients.authenticate("")).isEmpty();
    assertThat(clients.any(ApiRole.OPERATOR)).isTrue();
  }

  @Test
  void aClientWithOnlyAWebhookSecretIsLeftOutAndNoTokenAuthenticatesAsIt() {
    ApiClients clients =
        properties(Map.of("shop", client(CLIENT_TOKEN), "hooks", client(null)))
            .toClients(Set.of("hooks"));

    assertThat(clients.all()).extracting(ApiClient::name).containsExactly("shop");
  }

  @Test
  void theRolesBecomeSpringAuthoritiesAndAnAcceptedAuthenticationDropsItsToken() {
    ApiClient ops =
        properties(Map.of("ops", client(OPERATOR_TOKEN, "operator")))
            .toClients()
            .authenticate(OPERATOR_TOKEN)
            .orElseThrow();

    BearerTokenAuthentication accepted = BearerTokenAuthentication.accepted(ops);

    assertThat(accepted.isAuthenticated()).isTrue();
    assertThat(accepted.getAuthorities())
        .extracting(Object::toString)
        .containsExactly("ROLE_OPERATOR");
    assertThat(accepted.token()).isNull();
    assertThat(accepted.getCredentials()).isNull();
    assertThat(accepted.getName()).isEqualTo("ops");
    assertThat(BearerTokenAuthentication.presented(OPERATOR_TOKEN).isAuthenticated()).isFalse();
  }

  @ParameterizedTest(name = "''{0}'' is {1}")
  @CsvSource({"client, CLIENT", "OPERATOR, OPERATOR", "' operator ', OPERATOR", "admin, ''"})
  void aRoleIsParsedCaseInsensitivelyAndAnUnknownOneIsNone(String text, String role) {
    assertThat(ApiRole.parse(text))
        .isEqualTo(role == null || role.isEmpty() ? null : ApiRole.valueOf(role));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "short token | captchajobs.api.clients.shop.token: every token must have at least 16",
        "no token | captchajobs.api.clients.shop.token must be set",
        "unknown role | captchajobs.api.clients.shop.roles: 'admin' is not a role",
        "empty roles | captchajobs.api.clients.shop.roles must list client, operator or both",
        "zero rate | captchajobs.api.clients.shop.rate must be more than 0",
        "zero burst | captchajobs.api.clients.shop.burst must be at least 1",
        "priority 11 | captchajobs.api.clients.shop.max-priority must be between -10 and 10",
        "negative streams | captchajobs.api.clients.shop.max-streams must not be negative",
        "zero read rate | captchajobs.api.clients.shop.read-rate must be more than 0",
        "zero read burst | captchajobs.api.clients.shop.read-burst must be at least 1",
        "zero unfinished | captchajobs.api.clients.shop.max-unfinished must be at least 1",
      })
  void aBadClientValueIsRefusedNamingItsKeyAndNeverTheToken(String bad, String message) {
    Map<String, Consumer<ApiClientsProperties.Client>> spoil =
        Map.ofEntries(
            Map.entry("short token", c -> c.setToken("short-secret")),
            Map.entry("no token", c -> c.setToken(" ")),
            Map.entry("unknown role", c -> c.setRoles(List.of("admin"))),
            Map.entry("empty roles", c -> c.setRoles(List.of())),
            Map.entry("zero rate", c -> c.setRate(0)),
            Map.entry("zero burst", c -> c.setBurst(0)),
            Map.entry("priority 11", c -> c.setMaxPriority(11)),
            Map.entry("negative streams", c -> c.setMaxStreams(-1)),
            Map.entry("zero read rate", c -> c.setReadRate(0)),
            Map.entry("zero read burst", c -> c.setReadBurst(0)),
            Map.entry("zero unfinished", c -> c.setMaxUnfinished(0)));
    ApiClientsProperties.Client shop = client(CLIENT_TOKEN);
    spoil.get(bad).accept(shop);

    assertThatThrownBy(() -> properties(Map.of("shop", shop)).toClients())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith(message)
        .message()
        .doesNotContain(CLIENT_TOKEN, "short-secret");
  }

  @Test
  void aShorthandTokenShorterThan16CharactersIsRefusedNamingItsKey() {
    ApiClientsProperties p = new ApiClientsProperties();
    p.setTokens(List.of("fifteen-chars!!"));

    assertThatThrownBy(p::toClients)
        .hasMessage("captchajobs.api.tokens: every token must have at least 16 characters");
  }

  @Test
  void oneTokenGivenToTwoClientsIsRefused() {
    ApiClientsProperties p =
        properties(Map.of("a", client(CLIENT_TOKEN), "b", client(CLIENT_TOKEN)));

    assertThatThrownBy(p::toClients)
        .hasMessageEndingWith(".token: the same token is configured for more than one client")
        .message()
        .doesNotContain(CLIENT_TOKEN);
  }

  @ParameterizedTest(name = "client name ''{0}''")
  @CsvSource({"java-api", "'bad name'", "-dash-first"})
  void aClientNameThatIsTakenOrMalformedIsRefused(String name) {
    assertThatThrownBy(() -> properties(Map.of(name, client(CLIENT_TOKEN))).toClients())
        .hasMessageStartingWith("captchajobs.api.clients." + name + ": a client name is");
  }

  @Test
  void aNamedClientCalledDefaultCannotStandBesideTheShorthandTokens() {
    ApiClientsProperties p = properties(Map.of("default", client(OPERATOR_TOKEN)));
    p.setTokens(List.of(CLIENT_TOKEN));

    assertThatThrownBy(p::toClients)
        .hasMessage(
            "captchajobs.api.clients.default: the name default is taken by captchajobs.api.tokens");
  }

  @Test
  void thePropertiesPrintNoToken() {
    ApiClientsProperties p = properties(Map.of("shop", client(OPERATOR_TOKEN)));
    p.setTokens(List.of(CLIENT_TOKEN));

    assertThat(p.toString())
        .isEqualTo("ApiClientsProperties[tokens=1 configured, clients=[shop]]")
        .doesNotContain(CLIENT_TOKEN, OPERATOR_TOKEN);
    assertThat(p.toClients().toString()).doesNotContain(CLIENT_TOKEN, OPERATOR_TOKEN);
  }
}
