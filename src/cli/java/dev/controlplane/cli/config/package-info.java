/**
 * Contexts (like kubeconfig): where the servers are and how to authenticate, kept in {@code
 * ~/.config/cpctl/config.yaml}, and their resolution with command-line flags and {@code CPCTL_*}
 * environment overrides.
 */
package dev.controlplane.cli.config;
