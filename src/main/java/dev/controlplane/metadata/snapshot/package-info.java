/** The whole metadata at one version: the latest, or a past one rebuilt from the change log. */
package dev.controlplane.metadata.snapshot;
