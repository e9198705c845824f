package dev.controlplane.write;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PipelinedStatementsTest {

  @Test
  void placeholdersAreCountedOutsideQuotedLiteralsAndIdentifiersOnly() {
    assertEquals(0, PipelinedStatements.parameters("SELECT 1"));
    assertEquals(
        3,
        PipelinedStatements.parameters(
            "INSERT INTO t (a, \"b?\") VALUES (?, ?) ON CONFLICT (a) DO UPDATE SET c = '?' || ?"));
    assertEquals(1, PipelinedStatements.parameters("UPDATE t SET note = 'it''s ?' WHERE id = ?"));
  }
}
