package dev.controlplane.metadata.codec;

/** The two textual forms a declarative resource can take. */
public enum DocumentFormat {
  JSON("application/json"),
  YAML("application/yaml");

  private final String mediaType;

  DocumentFormat(String mediaType) {
    this.mediaType = mediaType;
  }

  public String mediaType() {
    return mediaType;
  }
}
