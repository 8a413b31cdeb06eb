/** Ends the run with one plain line, `jest: N passed, N failed, N skipped`, that CI tooling reads. */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failedSuites = results.numFailedTestSuites - 0;
    process.stdout.write(
      `\njest: ${results.numPassedTests} passed, ${results.numFailedTests + (results.numRuntimeErrorTestSuites ?? 0)} failed, ${skipped} skipped\n` +
        (failedSuites > 0 ? `(${failedSuites} test file(s) failed)\n` : ''),
    );
  }
}
module.exports = SummaryReporter;
