/**
 * Reports for people. For now the one home of escaping: every string that came from a task or
 * result message (experiment, suite, category, model, task id, error text) passes {@link
 * io.expresso.report.Escape} before it reaches Markdown, HTML or a terminal.
 */
package io.expresso.report;
