package com.captchajobs.simulator;

import tools.jackson.databind.json.JsonMapper;

/** The one Jackson mapper of the simulator. */
final class Json {
  static final JsonMapper MAPPER = JsonMapper.builder().build();

  private Json() {}

  static String write(Object value) {
    return MAPPER.writeValueAsString(value);
  }
}
