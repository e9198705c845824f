package dev.controlplane.cli.output;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A plain-text table like kubectl's: upper-case headers, columns padded to their widest cell and
 * separated by three spaces, no trailing blanks. Empty cells print as {@code <none>}.
 */
public final class Table {

  private static final String GAP = "   ";
  private final List<String> headers;
  private final List<List<String>> rows = new ArrayList<>();

  public Table(String... headers) {
    this(Arrays.asList(headers));
  }

  public Table(List<String> headers) {
    this.headers = headers.stream().map(h -> h.toUpperCase(Locale.ROOT)).toList();
  }

  public Table row(Object... cells) {
    return row(Arrays.stream(cells).map(Table::cell).toList());
  }

  public Table row(List<String> cells) {
    if (cells.size() != headers.size()) {
      throw new IllegalArgumentException(
          cells.size() + " cells for " + headers.size() + " columns");
    }
    rows.add(cells.stream().map(Table::cell).toList());
    return this;
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  public int size() {
    return rows.size();
  }

  public void print(PrintWriter out) {
    int[] widths = new int[headers.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = headers.get(i).length();
      for (List<String> row : rows) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    line(out, headers, widths);
    rows.forEach(row -> line(out, row, widths));
    out.flush();
  }

  private static void line(PrintWriter out, List<String> cells, int[] widths) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      String cell = cells.get(i);
      line.append(cell);
      if (i < cells.size() - 1) {
        line.append(" ".repeat(widths[i] - cell.length())).append(GAP);
      }
    }
    out.println(line.toString().stripTrailing());
  }

  private static String cell(Object value) {
    String text = value == null ? "" : value.toString();
    return text.isEmpty() ? "<none>" : text.replace('\n', ' ');
  }
}
