package com.example.shop;

import org.jobrunr.utils.mapper.JsonMapper;
import org.jobrunr.utils.mapper.jackson3.Jackson3JsonMapper;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A stand-in for a team's existing Boot app with JobRunr of its own: it adds the starter and a
 * datasource, and gets a {@code Solves} bean. It has its own JobRunr job ({@link CheckoutJob}) that
 * solves inside the job with {@code solveNow}.
 */
@SpringBootApplication
public class ShopApplication {

  /** The shop's own JobRunr configuration, as JobRunr's Boot starter on Jackson 3 needs it. */
  @Bean(name = "jobRunrJsonMapper")
  JsonMapper jobRunrJsonMapper() {
    return new Jackson3JsonMapper();
  }
}
