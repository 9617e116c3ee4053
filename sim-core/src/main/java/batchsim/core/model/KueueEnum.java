package batchsim.core.model;

import java.util.Arrays;
import java.util.stream.Collectors;

/** An enum whose constants have the spelling Kueue (or Kubernetes) uses in its API. */
public interface KueueEnum {
  String kueueName();

  /** Looks a constant up by its Kueue spelling; the message lists the accepted values. */
  static <E extends Enum<E> & KueueEnum> E parse(Class<E> type, String text) {
    for (E e : type.getEnumConstants()) {
      if (e.kueueName().equals(text)) {
        return e;
      }
    }
    throw new IllegalArgumentException("'" + text + "' is not one of "
        + Arrays.stream(type.getEnumConstants()).map(KueueEnum::kueueName).collect(Collectors.joining(", ")));
  }
}
