package dev.controlplane.metadata.codec;

import com.fasterxml.jackson.dataformat.yaml.util.StringQuotingChecker;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Quotes every string a YAML reader would take for something else. Jackson's own check, with
 * minimized quotes, wrote {@code key_id: 12345} for the string "12345", which this service (and any
 * other reader) then read back as a number, so a document fetched as YAML could not be sent back.
 * YAML 1.1's implicit types (SnakeYAML's resolver: numbers in every base and with underscores,
 * {@code .inf}, booleans such as {@code yes} and {@code off}, null, timestamps) are the widest
 * reading among common tools, so a string resolving to any of them is quoted; any other string is
 * written plain. Shared by the server and cpctl, which print the same documents.
 */
public final class YamlQuoting extends StringQuotingChecker.Default {

  private static final long serialVersionUID = 1L;
  private static final Resolver RESOLVER = new Resolver();

  @Override
  public boolean needToQuoteName(String name) {
    return super.needToQuoteName(name) || !readAsString(name);
  }

  @Override
  public boolean needToQuoteValue(String value) {
    return super.needToQuoteValue(value) || !readAsString(value);
  }

  private static boolean readAsString(String text) {
    return RESOLVER.resolve(NodeId.scalar, text, true).equals(Tag.STR);
  }
}
