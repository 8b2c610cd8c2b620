package com.captchajobs.core.client;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads our field names into a task record for {@link CaptchaTask#of}, and writes a task's values
 * back out as {@code params()} (sorted) or in.php {@code formFields()} (in request order). Our
 * field names are the records' component names, a {@link Proxy} being the two fields {@code proxy}
 * and {@code proxyType}.
 */
final class TaskFields {

  private final Map<String, String> params;

  private TaskFields(Map<String, String> params) {
    this.params = params;
  }

  /**
   * The task record of {@code type}: each component read from its field by its type, in declaration
   * order, then checked by the record's constructor.
   *
   * @throws InvalidTaskException naming the first unknown field (in name order) or invalid value
   */
  static CaptchaTask read(CaptchaType type, Map<String, String> params) {
    Class<? extends CaptchaTask> record = type.record;
    TaskFields in = read(type, params, names(record));
    RecordComponent[] components = record.getRecordComponents();
    Class<?>[] types = new Class<?>[components.length];
    Object[] values = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      types[i] = components[i].getType();
      values[i] = in.value(components[i].getName(), types[i]);
    }
    try {
      return record.getConstructor(types).newInstance(values);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot build " + record.getSimpleName(), e);
    }
  }

  /** Our field names of a task record. */
  static Set<String> names(Class<?> record) {
    Set<String> names = new HashSet<>();
    for (RecordComponent c : record.getRecordComponents()) {
      names.add(c.getName());
      if (c.getType() == Proxy.class) {
        names.add("proxyType");
      }
    }
    return names;
  }

  /** {@code params()} of a task record: its components that are set, by field name, sorted. */
  static Map<String, String> params(Record task) {
    Out out = new Out(new TreeMap<>());
    for (RecordComponent c : task.getClass().getRecordComponents()) {
      Object value;
      try {
        value = c.getAccessor().invoke(task);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot read " + c, e);
      }
      if (value instanceof Proxy proxy) {
        out.put("proxy", proxy.address()).put("proxyType", proxy.type());
      } else {
        out.put(c.getName(), value);
      }
    }
    return out.toMap();
  }

  private Object value(String name, Class<?> type) {
    if (type == Proxy.class) {
      return proxy();
    }
    if (type == Boolean.class) {
      return bool(name);
    }
    if (type == Integer.class) {
      return integer(name);
    }
    return type == BigDecimal.class ? decimal(name) : string(name);
  }

  /** Rejects the first field (in name order) that {@code type} does not know. */
  static TaskFields read(CaptchaType type, Map<String, String> params, Set<String> known) {
    // Not containsKey(null): immutable and sorted maps throw on it.
    List<String> names = new ArrayList<>(params.keySet());
    names.sort(Comparator.nullsFirst(Comparator.naturalOrder()));
    for (String name : names) {
      if (name == null) {
        throw new InvalidTaskException("(null)", "is not a field name");
      }
      if (!known.contains(name)) {
        throw new InvalidTaskException(name, "is not a field of " + type);
      }
    }
    return new TaskFields(params);
  }

  String string(String name) {
    return params.get(name);
  }

  Boolean bool(String name) {
    String value = params.get(name);
    if (value == null) {
      return null;
    }
    if (value.equals("true") || value.equals("false")) {
      return Boolean.valueOf(value);
    }
    throw new InvalidTaskException(name, "must be true or false");
  }

  BigDecimal decimal(String name) {
    String value = params.get(name);
    try {
      return value == null ? null : new BigDecimal(value.trim());
    } catch (NumberFormatException e) {
      throw new InvalidTaskException(name, "must be a decimal number");
    }
  }

  Integer integer(String name) {
    String value = params.get(name);
    try {
      return value == null ? null : Integer.valueOf(value.trim());
    } catch (NumberFormatException e) {
      throw new InvalidTaskException(name, "must be an integer");
    }
  }

  /** The proxy, or null; proxyType alone is an error, a proxy alone is HTTP. */
  Proxy proxy() {
    String address = params.get("proxy");
    String type = params.get("proxyType");
    if (address == null) {
      if (type != null) {
        throw new InvalidTaskException("proxyType", "requires proxy");
      }
      return null;
    }
    return new Proxy(address, type == null ? Proxy.Type.HTTP : Proxy.parseType(type));
  }

  /** A map writer that skips null values. */
  static final class Out {
    private final Map<String, String> map;

    private Out(Map<String, String> map) {
      this.map = map;
    }

    /** For {@code formFields()}: in the order the fields are added. */
    static Out form() {
      return new Out(new LinkedHashMap<>());
    }

    Out put(String name, Object value) {
      if (value instanceof BigDecimal decimal) {
        map.put(name, decimal.toPlainString());
      } else if (value != null) {
        map.put(name, value.toString());
      }
      return this;
    }

    /** in.php flags are 1/0. */
    Out flag(String name, Boolean value) {
      return put(name, value == null ? null : value ? "1" : "0");
    }

    /** The in.php names of the same fields. */
    Out browserForm(String userAgent, String cookies, Proxy proxy) {
      put("userAgent", userAgent).put("cookies", cookies);
      if (proxy != null) {
        put("proxy", proxy.address()).put("proxytype", proxy.type());
      }
      return this;
    }

    Map<String, String> toMap() {
      return Collections.unmodifiableMap(map);
    }
  }
}
