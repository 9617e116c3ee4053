package batchsim.workloads.trace;

import java.io.BufferedReader;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * The per-job Philly table ({@code timestamp,duration,num_gpus,gpu_time,cluster}) that Pollux derived
 * from Microsoft's Philly trace: submission time as {@code yyyy-MM-dd HH:mm:ss} without a zone (read as
 * UTC: only differences matter), duration in seconds, GPUs as the size, and the virtual cluster as
 * attribute {@code vc}. The table has no job id, so the id is the line number. Rows are not sorted.
 */
final class PhillyReader extends CsvReader<TraceJob> {
  static final List<String> COLUMNS = List.of("timestamp", "duration", "num_gpus", "cluster");
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  PhillyReader(BufferedReader in, String file, OnError onError) {
    super(in, file, onError, COLUMNS);
  }

  @Override
  TraceJob parse(Row row) {
    long submit;
    try {
      submit = LocalDateTime.parse(row.text("timestamp"), TIME).toInstant(ZoneOffset.UTC).toEpochMilli();
    } catch (DateTimeParseException e) {
      throw row.bad("timestamp", "'" + row.text("timestamp") + "' is not a time like 2017-10-09 07:01:55");
    }
    long duration = row.seconds("duration");
    long gpus = row.nonNegative("num_gpus");
    if (gpus > Integer.MAX_VALUE) {
      throw row.bad("num_gpus", "too many GPUs: " + gpus);
    }
    String vc = row.required("cluster", "the virtual cluster");
    return new TraceJob(Integer.toString(row.line), row.line, submit, duration, TraceJob.UNKNOWN, JobStatus.UNKNOWN,
        gpus == 0 ? TraceJob.UNKNOWN : (int) gpus, Map.of(), Map.of("vc", vc));
  }
}
