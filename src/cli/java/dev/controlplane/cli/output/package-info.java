/** What cpctl prints: tables, YAML and JSON shared by every command, and progress on stderr. */
package dev.controlplane.cli.output;
