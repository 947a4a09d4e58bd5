/**
 * The {@code expresso} command line (picocli): one class per command, output tables for people
 * on stdout, errors as one line on stderr, exit codes 0 (ok), 1 (failed), 2 (bad usage).
 */
package io.expresso.cli;
