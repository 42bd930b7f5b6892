// @web/test-runner draws its summary inside its progress display; this reporter prints one plain
// line at the very end, `N passed, N failed, N skipped`, for logs and for scripts/test.mjs.
export function plainSummary() {
  let counts = { passed: 0, failed: 0, skipped: 0 };
  const count = (suite) => {
    for (const test of suite?.tests ?? []) counts[test.skipped ? 'skipped' : test.passed ? 'passed' : 'failed']++;
    for (const child of suite?.suites ?? []) count(child);
  };
  return {
    onTestRunFinished({ sessions }) {
      counts = { passed: 0, failed: 0, skipped: 0 };
      for (const session of sessions) {
        count(session.testResults);
        // A file that failed to load or threw outside a test counts as one failure.
        if (
          session.errors?.length ||
          (!session.passed && !session.testResults?.tests?.length && !session.testResults?.suites?.length)
        )
          counts.failed++;
      }
    },
    stop() {
      process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
    },
  };
}
