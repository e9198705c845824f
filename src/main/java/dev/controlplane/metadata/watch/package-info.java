/**
 * Delivery of the change log to watchers: one tailer per node reads new updates by version, every
 * watcher advances at its own pace, and none can hold up a writer or another watcher.
 */
package dev.controlplane.metadata.watch;
