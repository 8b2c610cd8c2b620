package com.captchajobs.core.internal.db;

import static org.assertj.core.api.Assertions.assertThat;

import com.captchajobs.core.internal.db.SearchPath.Entry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The guard's reading of a search_path, name by name, as PostgreSQL resolves it. */
@Tag("unit")
class SearchPathTest {

  @Test
  void postgresDefaultReachesTheSchemaThroughAUserNamedLikeIt() {
    assertThat(SearchPath.reaching("\"$user\", public", "captchajobs", "captchajobs"))
        .isEqualTo(new Entry("captchajobs", true));
    assertThat(SearchPath.reaching("$user,public", "captchajobs", "captchajobs"))
        .isEqualTo(new Entry("captchajobs", true));
  }

  @Test
  void postgresDefaultWithAnotherUserDoesNotReachTheSchema() {
    assertThat(SearchPath.reaching("\"$user\", public", "shop", "captchajobs")).isNull();
  }

  @Test
  void anUnquotedNameInCapitalsIsFoldedToLowerCaseAndReachesTheSchema() {
    assertThat(SearchPath.reaching("CAPTCHAJOBS, public", "shop", "captchajobs"))
        .isEqualTo(new Entry("captchajobs", false));
    assertThat(SearchPath.reaching("public,  CaptchaJobs ", "shop", "captchajobs"))
        .isEqualTo(new Entry("captchajobs", false));
  }

  @Test
  void aQuotedNameKeepsItsCaseSoAQuotedCapitalNameIsAnotherSchema() {
    assertThat(SearchPath.reaching("\"CAPTCHAJOBS\", public", "shop", "captchajobs")).isNull();
    assertThat(SearchPath.reaching("\"captchajobs\"", "shop", "captchajobs"))
        .isEqualTo(new Entry("captchajobs", false));
  }

  @Test
  void theUserNameStandsForDollarUserAsItIsWithoutFolding() {
    // a role created as "CaptchaJobs" has a schema "CaptchaJobs" under $user, not ours
    assertThat(SearchPath.reaching("\"$user\", public", "CaptchaJobs", "captchajobs")).isNull();
  }

  @Test
  void aCommaOrQuoteInsideAQuotedNameDoesNotSplitIt() {
    assertThat(SearchPath.schemas("\"a,b\", \"say \"\"hi\"\"\", public", "shop"))
        .containsExactly(
            new Entry("a,b", false), new Entry("say \"hi\"", false), new Entry("public", false));
  }

  @Test
  void aPinnedOrEmptySearchPathReachesNothing() {
    assertThat(SearchPath.reaching("public", "captchajobs", "captchajobs")).isNull();
    assertThat(SearchPath.reaching("", "captchajobs", "captchajobs")).isNull();
  }
}
