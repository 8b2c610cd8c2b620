package com.captchajobs.core.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Tag("unit")
class ErrorClassTest {

  /** The table of docs/captchaai-contract.md, row by row, plus the client's transport codes. */
  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ERROR_WRONG_USER_KEY           | CREDENTIAL
          ERROR_KEY_DOES_NOT_EXIST       | CREDENTIAL
          IP_BANNED                      | CREDENTIAL
          ERROR_IP_BANNED                | CREDENTIAL
          ERROR_IP_NOT_ALLOWED           | CREDENTIAL
          ERROR_PAGEURL                  | REQUEST
          ERROR_GOOGLEKEY                | REQUEST
          ERROR_WRONG_GOOGLEKEY          | REQUEST
          ERROR_BAD_TOKEN_OR_PAGEURL     | REQUEST
          ERROR_BAD_PARAMETERS           | REQUEST
          ERROR_NO_SUCH_METHOD           | REQUEST
          ERROR_DOMAIN_NOT_ALLOWED       | REQUEST
          ERROR_TOKEN_EXPIRED            | REQUEST
          ERROR_WRONG_ID_FORMAT          | REQUEST
          ERROR_WRONG_CAPTCHA_ID         | REQUEST
          ERROR_NO_SUCH_CAPCHA_ID        | REQUEST
          ERROR_EMPTY_ACTION             | REQUEST
          ERROR_DUPLICATE_REPORT         | REQUEST
          REPORT_NOT_RECORDED            | REQUEST
          ERROR_IP_ADDRES                | REQUEST
          ERROR_ZERO_CAPTCHA_FILESIZE    | IMAGE
          ERROR_TOO_BIG_CAPTCHA_FILESIZE | IMAGE
          ERROR_WRONG_FILE_EXTENSION     | IMAGE
          ERROR_IMAGE_TYPE_NOT_SUPPORTED | IMAGE
          ERROR_UPLOAD                   | IMAGE
          ERROR_CAPTCHAIMAGE_BLOCKED     | IMAGE
          ERROR_EMPTY_CAPTCHA            | IMAGE
          ERROR_BAD_DUPLICATES           | IMAGE
          ERROR_BAD_PROXY                | PROXY
          ERROR_PROXY_CONNECTION_FAILED  | PROXY
          ERROR_PROXY_FORMAT             | PROXY
          ERROR_CAPTCHA_UNSOLVABLE       | UNSOLVABLE
          ERROR_ZERO_BALANCE             | THREADS
          ERROR_NO_SLOT_AVAILABLE        | THREADS
          ERROR_TOO_MUCH_REQUESTS        | TRANSIENT
          MAX_USER_TURN                  | TRANSIENT
          ERROR: 1001                    | TRANSIENT
          ERROR:1002                     | TRANSIENT
          ERROR                          | TRANSIENT
          ERROR_SERVER_ERROR             | TRANSIENT
          ERROR_INTERNAL_SERVER_ERROR    | TRANSIENT
          NETWORK                        | TRANSIENT
          TIMEOUT                        | TRANSIENT
          HTTP_502                       | TRANSIENT
          EMPTY_BODY                     | TRANSIENT
          UNRECOGNISED_BODY              | TRANSIENT
          CAPCHA_NOT_READY               | NOT_READY
          ERROR_NEVER_SEEN_BEFORE        | REQUEST
          """)
  void eachCodeHasTheClassOfTheContractTable(String code, ErrorClass expected) {
    assertThat(ErrorClass.of(code)).isEqualTo(expected);
  }

  @Test
  void onlyCredentialRequestImageProxyUnsolvableAndDeadlineArePermanent() {
    assertThat(Arrays.stream(ErrorClass.values()).filter(ErrorClass::permanent))
        .containsExactly(
            ErrorClass.CREDENTIAL,
            ErrorClass.REQUEST,
            ErrorClass.IMAGE,
            ErrorClass.PROXY,
            ErrorClass.UNSOLVABLE,
            ErrorClass.DEADLINE);
  }

  @Test
  void anUnknownErrorCodeIsPermanentButUnknownNonErrorTextIsTransient() {
    assertThat(ErrorClass.of("ERROR_SOMETHING").permanent()).isTrue();
    assertThat(ErrorClass.of("SOMETHING_ELSE")).isEqualTo(ErrorClass.TRANSIENT);
    assertThat(ErrorClass.of(null)).isEqualTo(ErrorClass.TRANSIENT);
  }
}
