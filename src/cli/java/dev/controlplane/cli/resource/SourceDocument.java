package dev.controlplane.cli.resource;

import com.fasterxml.jackson.databind.JsonNode;

/** A document read from a file, with where it came from ({@code path#3}: the third document). */
public record SourceDocument(String origin, JsonNode doc) {}
