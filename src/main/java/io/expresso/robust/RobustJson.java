package io.expresso.robust;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/** Jobs and outcomes as JSON inside the task and result messages (fields 50+). */
final class RobustJson {

  private static final ObjectMapper MAPPER = new ObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private RobustJson() {}

  static String write(Object o) {
    try {
      return MAPPER.writeValueAsString(o);
    } catch (IOException e) {
      throw new IllegalStateException("cannot encode " + o.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
  }

  static <T> T read(String json, Class<T> type) {
    try {
      return MAPPER.readValue(json, type);
    } catch (IOException e) {
      throw new IllegalArgumentException("bad " + type.getSimpleName() + " JSON: " + e.getMessage(), e);
    }
  }
}
