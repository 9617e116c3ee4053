package batchsim.reports;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * One chart as an HTML {@code <figure>} holding a legend and an inline SVG: gridlines, axes, lines,
 * filled bands and bars. Coordinates are written with one decimal in viewBox units, so the output
 * depends only on the data. Lines carry their legend key and name so that the page script can show
 * hover values and toggle series; the SVG carries the axis mapping it needs to invert pixels.
 */
final class SvgChart {
  static final int WIDE = 1160;
  static final int HALF = 570;
  static final int SMALL = 380;

  private static final int LEFT = 62;
  private static final int RIGHT = 14;
  private static final int TOP = 12;
  private static final int BOTTOM = 42;

  private final int width;
  private final int height;
  private final Axis x;
  private final Axis y;
  private final List<String[]> keys = new ArrayList<>(); // {name, color, css class}
  private final StringBuilder body = new StringBuilder(8192);
  private boolean legend = true;
  /** Lines that get widths by their key's order ({@link Palette#width}); 0 = CSS widths. */
  private int layered;
  private int budget = Downsample.MAX_POINTS;

  SvgChart(int width, int height, Axis x, Axis y) {
    this.width = width;
    this.height = height;
    this.x = x;
    this.y = y;
  }

  /** Adds a legend entry; {@code style} is "line", "dash", "area" or "bar". Returns its index. */
  int key(String name, String color, String style) {
    keys.add(new String[] {name, color, style});
    return keys.size() - 1;
  }

  /**
   * Points worth drawing per line: a min and a max per pixel column of the plot, at most the
   * budget.
   */
  int maxPoints() {
    return Math.min(budget, 2 * (width - LEFT - RIGHT));
  }

  /** Caps the points per line below {@link Downsample#MAX_POINTS}, for pages with many lines. */
  SvgChart budget(int maxPointsPerLine) {
    budget = Math.min(Downsample.MAX_POINTS, maxPointsPerLine);
    return this;
  }

  /** Leaves the legend out, for small multiples that share one legend. */
  SvgChart noLegend() {
    legend = false;
    return this;
  }

  /**
   * Gives the lines of the first {@code n} keys decreasing widths, so coinciding series stay visible;
   * call before adding them.
   */
  SvgChart layered(int n) {
    layered = n;
    return this;
  }

  /** A hoverable line through (x[i], y[i]); longer series are reduced by {@link Downsample#minMax}. */
  SvgChart line(int key, double[] xs, double[] ys, boolean dashed) {
    int[] idx = Downsample.minMax(ys, maxPoints());
    body.append("<polyline class=\"ln").append(dashed ? " dash" : "").append("\" data-s=\"")
        .append(key).append("\" data-name=\"").append(Html.esc(keys.get(key)[0]))
        .append("\" stroke=\"").append(keys.get(key)[1]);
    if (key < layered) {
      body.append("\" style=\"stroke-width:").append(Palette.width(key, layered));
    }
    body.append("\" points=\"");
    appendPoints(xs, ys, idx);
    body.append("\"/>\n");
    return this;
  }

  /**
   * A filled band between lo and hi over the same x values (callers downsample first). Stretches where
   * the band has no height are left out, so a rarely used "borrowed" band costs little.
   */
  SvgChart band(int key, double[] xs, double[] lo, double[] hi, String opacity) {
    int n = xs.length;
    String[] sx = new String[n];
    String[] top = new String[n];
    String[] bottom = new String[n];
    for (int i = 0; i < n; i++) {
      sx[i] = num(px(xs[i]));
      top[i] = num(py(hi[i]));
      bottom[i] = num(py(lo[i]));
    }
    StringBuilder d = new StringBuilder();
    int i = 0;
    while (i < n) {
      if (top[i].equals(bottom[i])) {
        i++;
        continue;
      }
      int from = Math.max(0, i - 1); // start and end on the zero-height neighbours
      int to = i;
      while (to < n - 1 && !top[to].equals(bottom[to])) {
        to++;
      }
      d.append(d.length() == 0 ? "M" : " M");
      edge(d, sx, top, from, to, 1);
      edge(d, sx, bottom, to, from, -1);
      d.append(" Z");
      i = to + 1;
    }
    if (d.length() > 0) {
      body.append("<path class=\"band\" data-s=\"").append(key).append("\" fill=\"")
          .append(keys.get(key)[1]).append("\" fill-opacity=\"").append(opacity).append("\" d=\"")
          .append(d).append("\"/>\n");
    }
    return this;
  }

  /** Appends points from..to (inclusive, in direction dir), skipping the middle of flat runs. */
  private static void edge(StringBuilder d, String[] sx, String[] sy, int from, int to, int dir) {
    for (int k = from; ; k += dir) {
      boolean end = k == from || k == to;
      if (end || !(sy[k].equals(sy[k - dir]) && sy[k].equals(sy[k + dir]))) {
        d.append(' ').append(sx[k]).append(',').append(sy[k]);
      }
      if (k == to) {
        return;
      }
    }
  }

  /** A bar from (x0, y0) to (x1, y1) with a native tooltip. */
  SvgChart bar(int key, double x0, double x1, double y0, double y1, String tooltip) {
    double left = px(x0);
    double right = px(x1);
    double top = py(y1);
    double bottom = py(y0);
    body.append("<rect class=\"bar\" data-s=\"").append(key).append("\" fill=\"")
        .append(keys.get(key)[1]).append("\" x=\"").append(num(left)).append("\" y=\"")
        .append(num(top)).append("\" width=\"").append(num(Math.max(0.5, right - left - 1)))
        .append("\" height=\"").append(num(bottom - top)).append("\"><title>")
        .append(Html.esc(tooltip)).append("</title></rect>\n");
    return this;
  }

  /** A dot at (x, y) with a native tooltip (one replica's value in a sweep chart). */
  SvgChart dot(int key, double x0, double y0, String tooltip) {
    body.append("<circle class=\"dot\" data-s=\"").append(key).append("\" fill=\"")
        .append(keys.get(key)[1]).append("\" cx=\"").append(num(px(x0))).append("\" cy=\"")
        .append(num(py(y0))).append("\" r=\"3\"><title>").append(Html.esc(tooltip))
        .append("</title></circle>\n");
    return this;
  }

  /** A vertical stroke from y0 to y1 at x (a replica range). */
  SvgChart range(int key, double x0, double y0, double y1) {
    body.append("<line class=\"range\" data-s=\"").append(key).append("\" stroke=\"")
        .append(keys.get(key)[1]).append("\" x1=\"").append(num(px(x0))).append("\" x2=\"")
        .append(num(px(x0))).append("\" y1=\"").append(num(py(y0))).append("\" y2=\"")
        .append(num(py(y1))).append("\"/>\n");
    return this;
  }

  /** Appends the figure; {@code id} must be unique in the page. */
  void render(StringBuilder out, String id, String title, String subtitle) {
    out.append("<figure class=\"chart").append(width < WIDE ? " narrow" : "").append("\" id=\"").append(id).append("\">\n<figcaption><h3>")
        .append(Html.esc(title)).append("</h3>");
    if (subtitle != null && !subtitle.isEmpty()) {
      out.append("<p>").append(Html.esc(subtitle)).append("</p>");
    }
    out.append("</figcaption>\n");
    if (legend && !keys.isEmpty()) {
      out.append("<div class=\"legend\">");
      for (int i = 0; i < keys.size(); i++) {
        String[] k = keys.get(i);
        out.append("<button type=\"button\" data-s=\"").append(i).append("\"><i class=\"sw ")
            .append(k[2]).append("\" style=\"--c:").append(k[1]).append("\"></i>")
            .append(Html.esc(k[0])).append("</button>");
      }
      out.append("</div>\n");
    }
    out.append("<div class=\"plot\"><svg viewBox=\"0 0 ").append(width).append(' ').append(height)
        .append("\" role=\"img\" aria-label=\"").append(Html.esc(title))
        .append("\" data-x=\"").append(exact(x.min())).append(' ').append(exact(x.max()))
        .append(' ')
        .append(LEFT).append(' ').append(width - RIGHT)
        .append("\" data-y=\"").append(exact(y.min())).append(' ').append(exact(y.max()))
        .append(' ')
        .append(height - BOTTOM).append(' ').append(TOP)
        .append(x.format().equals("cat") ? "\" data-xc=\"" + Html.esc(String.join("|", x.labels())) : "")
        .append("\" data-xf=\"").append(x.format()).append("\" data-yf=\"").append(y.format())
        .append("\" data-yu=\"").append(Html.esc(y.unit())).append("\">\n");
    axes(out);
    if (body.length() == 0) {
      out.append("<text class=\"empty\" x=\"").append((LEFT + width - RIGHT) / 2)
          .append("\" y=\"").append((TOP + height - BOTTOM) / 2).append("\">no data</text>\n");
    }
    out.append("<g class=\"data\">\n").append(body).append("</g>\n");
    out.append("<line class=\"cursor\" x1=\"0\" x2=\"0\" y1=\"").append(TOP).append("\" y2=\"")
        .append(height - BOTTOM).append("\" visibility=\"hidden\"/>\n");
    out.append("</svg><div class=\"tip\" hidden></div></div>\n</figure>\n");
  }

  private void axes(StringBuilder out) {
    int bottom = height - BOTTOM;
    out.append("<g class=\"grid\">");
    for (double t : y.ticks()) {
      String py = num(py(t));
      out.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(width - RIGHT)
          .append("\" y1=\"").append(py).append("\" y2=\"").append(py).append("\"/>");
    }
    for (double t : x.ticks()) {
      String px = num(px(t));
      out.append("<line x1=\"").append(px).append("\" x2=\"").append(px).append("\" y1=\"")
          .append(TOP).append("\" y2=\"").append(bottom).append("\"/>");
    }
    out.append("</g>\n<g class=\"axis\">");
    out.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(width - RIGHT)
        .append("\" y1=\"").append(bottom).append("\" y2=\"").append(bottom).append("\"/>");
    for (int i = 0; i < y.ticks().length; i++) {
      out.append("<text class=\"yt\" x=\"").append(LEFT - 8).append("\" y=\"")
          .append(num(py(y.ticks()[i]))).append("\">").append(Html.esc(y.labels().get(i)))
          .append("</text>");
    }
    for (int i = 0; i < x.ticks().length; i++) {
      out.append("<text class=\"xt\" x=\"").append(num(px(x.ticks()[i]))).append("\" y=\"")
          .append(bottom + 16).append("\">").append(Html.esc(x.labels().get(i))).append("</text>");
    }
    out.append("<text class=\"xl\" x=\"").append(width - RIGHT).append("\" y=\"")
        .append(height - 6).append("\">").append(Html.esc(x.title())).append("</text>");
    String yTitle = y.unit().isEmpty() ? y.title() : y.title() + " (" + y.unit() + ")";
    out.append("<text class=\"yl\" transform=\"translate(14 ").append(num((TOP + bottom) / 2.0))
        .append(") rotate(-90)\">").append(Html.esc(yTitle)).append("</text>");
    out.append("</g>\n");
  }

  /** Points, skipping the middle of runs that land on the same pixel row (flat stretches). */
  private void appendPoints(double[] xs, double[] ys, int[] idx) {
    int n = idx.length;
    String[] sy = new String[n];
    for (int k = 0; k < n; k++) {
      sy[k] = num(py(ys[idx[k]]));
    }
    boolean first = true;
    for (int k = 0; k < n; k++) {
      if (k > 0 && k < n - 1 && sy[k].equals(sy[k - 1]) && sy[k].equals(sy[k + 1])) {
        continue;
      }
      body.append(first ? "" : " ").append(num(px(xs[idx[k]]))).append(',').append(sy[k]);
      first = false;
    }
  }

  private double px(double v) {
    double span = x.max() - x.min();
    return LEFT + (span <= 0 ? 0 : (v - x.min()) / span * (width - LEFT - RIGHT));
  }

  private double py(double v) {
    double span = y.max() - y.min();
    double f = span <= 0 ? 0 : (v - y.min()) / span;
    return height - BOTTOM - Math.max(-0.02, Math.min(1.02, f)) * (height - TOP - BOTTOM);
  }

  /** Axis domains for the page script: six decimals, no exponent. */
  private static String exact(double v) {
    BigDecimal d = Formats.round(v, 6);
    return d == null ? "0" : d.toPlainString();
  }

  /** One decimal, no trailing ".0", locale-free: coordinates are the bulk of the page. */
  static String num(double v) {
    long t = Math.round(v * 10);
    if (t % 10 == 0) {
      return Long.toString(t / 10);
    }
    String sign = t < 0 ? "-" : "";
    long a = Math.abs(t);
    return sign + (a / 10) + "." + (a % 10);
  }
}
