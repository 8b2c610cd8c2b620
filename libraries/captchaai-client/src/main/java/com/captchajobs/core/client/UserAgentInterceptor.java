package com.captchajobs.core.client;

import java.io.IOException;
import okhttp3.Interceptor;
import okhttp3.Response;

/** Sets our User-Agent header on every request, replacing OkHttp's default. */
final class UserAgentInterceptor implements Interceptor {

  private final String userAgent;

  UserAgentInterceptor(String userAgent) {
    this.userAgent = userAgent;
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    return chain.proceed(chain.request().newBuilder().header("User-Agent", userAgent).build());
  }
}
