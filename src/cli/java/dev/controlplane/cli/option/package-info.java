/** Options several commands share: scope, output format, dry run. */
package dev.controlplane.cli.option;
