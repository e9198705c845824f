/** The commands, one class per command group; they share the session, printers and kinds. */
package dev.controlplane.cli.command;
