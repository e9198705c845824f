/**
 * Settings, read through MicroProfile Config; every one has an environment variable and a default
 * (docs/configuration.md).
 */
package dev.controlplane.config;
