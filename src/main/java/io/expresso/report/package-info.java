/**
 * Reports for people: every report writer lives here. Summaries of an experiment's results
 * ({@link io.expresso.report.ResultSummary}, the multi-seed {@link
 * io.expresso.report.SeedLeaderboard}, the comparison with BREC's paper), the files they are written
 * to ({@link io.expresso.report.ReportFiles}: JSONL, JSON, Markdown, HTML, PNG), terminal tables
 * ({@link io.expresso.report.Table}, {@link io.expresso.report.ResultTables}), dataset results, the
 * JSONL file {@code eval} streams its judgements to, the robustness study's tables and files
 * ({@link io.expresso.report.RobustnessWriter}) and the PNG plots. Reports read the science
 * packages and the robustness study; nothing below them reads this package.
 *
 * <p>The one home of escaping: every string that came from a task or result message (experiment,
 * suite, category, model, task id, error text) passes {@link io.expresso.report.Escape} before it
 * reaches Markdown, HTML or a terminal.
 */
package io.expresso.report;
