package batchsim.scenarios.conformance.kueue;

import batchsim.core.kueue.Workload;
import batchsim.core.model.KueueEnum;
import batchsim.core.model.Quantity;
import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reading values out of case documents, with the file's conventions (quantities, relative times). */
final class Nodes {
  private Nodes() {}

  static boolean has(JsonNode obj, String field) {
    return obj != null && obj.hasNonNull(field);
  }

  /** A scalar's text; numbers keep their exact decimal spelling ("0.5", "6"). */
  static String text(JsonNode n, String what) {
    if (n == null || n.isNull() || n.isMissingNode() || n.isContainerNode()) {
      throw CaseException.invalid(what + ": expected a scalar");
    }
    if (n.isNumber()) {
      return n.isIntegralNumber() ? n.bigIntegerValue().toString()
          : new BigDecimal(n.asText()).stripTrailingZeros().toPlainString();
    }
    return n.asText();
  }

  static String string(JsonNode obj, String field, String dflt) {
    return has(obj, field) ? text(obj.get(field), field) : dflt;
  }

  static String required(JsonNode obj, String field, String where) {
    if (!has(obj, field)) {
      throw CaseException.invalid(where + ": missing " + field);
    }
    return text(obj.get(field), where + "." + field);
  }

  static int integer(JsonNode obj, String field, int dflt) {
    if (!has(obj, field)) {
      return dflt;
    }
    JsonNode n = obj.get(field);
    if (!n.canConvertToInt() || !n.isIntegralNumber()) {
      throw CaseException.invalid(field + ": expected an integer, got " + n);
    }
    return n.intValue();
  }

  static boolean bool(JsonNode obj, String field, boolean dflt) {
    if (!has(obj, field)) {
      return dflt;
    }
    JsonNode n = obj.get(field);
    if (!n.isBoolean()) {
      throw CaseException.invalid(field + ": expected true or false, got " + n);
    }
    return n.booleanValue();
  }

  /** The elements of a list field; absent or null is empty. */
  static List<JsonNode> list(JsonNode obj, String field) {
    List<JsonNode> out = new ArrayList<>();
    if (!has(obj, field)) {
      return out;
    }
    JsonNode n = obj.get(field);
    if (!n.isArray()) {
      throw CaseException.invalid(field + ": expected a list");
    }
    n.forEach(out::add);
    return out;
  }

  /** The entries of a mapping, in file order; absent or null is empty. */
  static Map<String, JsonNode> map(JsonNode obj, String field) {
    if (!has(obj, field)) {
      return new LinkedHashMap<>();
    }
    return entries(obj.get(field), field);
  }

  static Map<String, JsonNode> entries(JsonNode n, String what) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    if (n == null || n.isNull() || n.isMissingNode()) {
      return out;
    }
    if (!n.isObject()) {
      throw CaseException.invalid(what + ": expected a mapping");
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext();) {
      Map.Entry<String, JsonNode> e = it.next();
      out.put(e.getKey(), e.getValue());
    }
    return out;
  }

  /** A resource amount in base units (cpu in cores → milli-cores, memory strings → bytes, others units). */
  static long quantity(String resource, JsonNode n) {
    String t = text(n, resource);
    try {
      return Quantity.parse(resource, t);
    } catch (IllegalArgumentException e) {
      throw CaseException.invalid(resource + ": " + e.getMessage());
    }
  }

  /**
   * A time in seconds relative to the test's now, as virtual milliseconds. {@code unset} is Kueue's zero
   * timestamp, which sorts before every set time.
   */
  static long relativeTime(JsonNode obj, String field, long now, long dflt) {
    if (!has(obj, field)) {
      return dflt;
    }
    JsonNode n = obj.get(field);
    if (n.isTextual() && "unset".equals(n.asText())) {
      return Workload.UNSET_TIME;
    }
    if (!n.isNumber()) {
      throw CaseException.invalid(field + ": expected seconds relative to now, or unset; got " + n);
    }
    return now + new BigDecimal(n.asText()).movePointRight(3).longValueExact();
  }

  static <E extends Enum<E> & KueueEnum> E enumValue(Class<E> type, JsonNode obj, String field, E dflt) {
    if (!has(obj, field)) {
      return dflt;
    }
    try {
      return KueueEnum.parse(type, text(obj.get(field), field));
    } catch (IllegalArgumentException e) {
      throw CaseException.invalid(field + ": " + e.getMessage());
    }
  }
}
