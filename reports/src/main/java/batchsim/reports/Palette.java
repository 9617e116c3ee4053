package batchsim.reports;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Series colours and which series a chart draws. Seven hues of Okabe and Ito's colour-blind-safe palette
 * (their yellow darkened to read on white); a chart with more series draws the seven most relevant in
 * their own order and one grey "rest" line that aggregates the others, so colours are never reused.
 */
final class Palette {
  static final String[] SERIES = {"#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7",
      "#B8A000"};
  /** The aggregate of the series not drawn on their own. */
  static final String REST = "#a0a6b0";
  /** The all-queues curve, drawn dashed over the others. */
  static final String OVERALL = "#4b5563";

  private Palette() {}

  /** The colour of the i-th drawn series; callers draw at most {@link #SERIES}.length of them. */
  static String color(int i) {
    return SERIES[i % SERIES.length];
  }

  /**
   * The series drawn on their own: all when they fit the palette, else the {@code SERIES.length} with the
   * largest relevance (ties: the earlier). Both lists keep the series' own order.
   *
   * @param shown indices drawn with their own colour
   * @param rest indices aggregated into one grey line (empty when everything fits)
   */
  record Selection(List<Integer> shown, List<Integer> rest) {
    String restLabel(String noun) {
      return "rest: " + rest.size() + " " + noun + (rest.size() == 1 ? "" : "s");
    }
  }

  static Selection top(double[] relevance) {
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < relevance.length; i++) {
      all.add(i);
    }
    if (relevance.length <= SERIES.length) {
      return new Selection(all, List.of());
    }
    List<Integer> ranked = new ArrayList<>(all);
    ranked.sort(Comparator.comparingDouble((Integer i) -> -relevance[i]).thenComparingInt(i -> i));
    List<Integer> shown = new ArrayList<>(ranked.subList(0, SERIES.length));
    List<Integer> rest = new ArrayList<>(ranked.subList(SERIES.length, ranked.size()));
    shown.sort(null);
    rest.sort(null);
    return new Selection(shown, rest);
  }

  /**
   * Stroke width of the i-th of n lines: the first drawn is widest and later ones narrower, so a line
   * drawn exactly over an earlier one leaves it visible as an outline.
   */
  static String width(int i, int n) {
    double w = n <= 1 ? 2 : 4 - 2.4 * i / (n - 1);
    return SvgChart.num(w);
  }
}
