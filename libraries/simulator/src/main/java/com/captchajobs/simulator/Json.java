package com.captchajobs.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one Jackson mapper of the simulator: Jackson 2, like the core, so that the simulator runs
 * inside a Spring Boot 3.5 application's tests as well as a Boot 4 one's.
 */
final class Json {
  static final JsonMapper MAPPER =
      JsonMapper.builder()
          .enable(com.fasterxml.jackson.core.StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
          .build();

  private Json() {}

  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Could not write JSON: " + e.getOriginalMessage(), e);
    }
  }
}
