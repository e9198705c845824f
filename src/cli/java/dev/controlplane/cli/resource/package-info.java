/**
 * The declarative kinds as cpctl sees them: where each lives in the HTTP API, how it prints as a
 * table row, how documents are read from files, and how lists are paged.
 */
package dev.controlplane.cli.resource;
