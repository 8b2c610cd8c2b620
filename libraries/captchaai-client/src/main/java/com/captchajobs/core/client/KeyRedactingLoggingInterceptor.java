package com.captchajobs.core.client;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import okhttp3.FormBody;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs one DEBUG line per call: method, path, form fields, status (or failure) and duration.
 * CaptchaAI takes the key as a form field, which OkHttp's {@code HttpLoggingInterceptor} cannot
 * redact, hence this class. Reply bodies are never logged: they carry tokens.
 */
final class KeyRedactingLoggingInterceptor implements Interceptor {

  private static final Logger log = LoggerFactory.getLogger(KeyRedactingLoggingInterceptor.class);

  static final String REDACTED = "***";

  /** Secrets: shown as {@value #REDACTED}, wherever they appear. */
  private static final Set<String> SECRET_FIELDS = Set.of("key");

  /** Long or private values: shown as their length only. */
  private static final Set<String> LENGTH_ONLY_FIELDS = Set.of("body", "cookies", "pingback");

  private static final int MAX_VALUE_CHARS = 64;

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    if (!log.isDebugEnabled()) {
      return chain.proceed(request);
    }
    String call = describe(request);
    long start = System.nanoTime();
    try {
      Response response = chain.proceed(request);
      log.debug("{} -> {} in {} ms", call, response.code(), millisSince(start));
      return response;
    } catch (IOException e) {
      log.debug("{} -> {} in {} ms", call, e.getClass().getSimpleName(), millisSince(start));
      throw e;
    }
  }

  /** {@code POST /res.php [key=***, json=1, action=get, id=123]}. */
  static String describe(Request request) {
    StringBuilder line = new StringBuilder(request.method()).append(' ');
    HttpUrl url = request.url();
    line.append(url.encodedPath());
    if (url.querySize() > 0) {
      line.append('?');
      for (int i = 0; i < url.querySize(); i++) {
        line.append(i == 0 ? "" : "&").append(url.queryParameterName(i)).append('=');
        line.append(show(url.queryParameterName(i), url.queryParameterValue(i)));
      }
    }
    if (request.body() instanceof FormBody form) {
      line.append(" [");
      for (int i = 0; i < form.size(); i++) {
        line.append(i == 0 ? "" : ", ").append(form.name(i)).append('=');
        line.append(show(form.name(i), form.value(i)));
      }
      line.append(']');
    }
    return line.toString();
  }

  private static String show(String name, String value) {
    if (value == null) {
      return "";
    }
    if (SECRET_FIELDS.contains(name)) {
      return REDACTED;
    }
    if (LENGTH_ONLY_FIELDS.contains(name)) {
      return "(" + value.length() + " chars)";
    }
    if (name.equals("proxy")) {
      return Proxy.redacted(value);
    }
    return value.length() <= MAX_VALUE_CHARS ? value : value.substring(0, MAX_VALUE_CHARS) + "...";
  }

  private static long millisSince(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }
}
