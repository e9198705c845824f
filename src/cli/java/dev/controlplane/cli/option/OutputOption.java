package dev.controlplane.cli.option;

import dev.controlplane.cli.output.OutputFormat;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** {@code -o table|yaml|json|name}. */
public final class OutputOption {

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      defaultValue = "table",
      converter = Converter.class,
      completionCandidates = Formats.class,
      description = "Output format: table, yaml, json or name. Default: ${DEFAULT-VALUE}.")
  public OutputFormat format;

  public static final class Converter implements ITypeConverter<OutputFormat> {
    @Override
    public OutputFormat convert(String value) {
      try {
        return OutputFormat.parse(value);
      } catch (IllegalArgumentException unknown) {
        throw new TypeConversionException(
            "'" + value + "' is not a format; use table, yaml, json or name");
      }
    }
  }

  public static final class Formats extends java.util.ArrayList<String> {
    public Formats() {
      super(java.util.List.of("table", "yaml", "json", "name"));
    }
  }
}
