/**
 * The declarative form of resources ({@code apiVersion}, {@code kind}, {@code metadata}, {@code
 * spec}) in JSON and YAML. The same JSON is the payload of the change log, so there is one mapping
 * between resources and documents.
 */
package dev.controlplane.metadata.codec;
