/**
 * Expressiveness suites: named categories of non-isomorphic graph pairs, loaded from suite specs
 * ({@link io.expresso.suite.SuiteSpecs}): BREC files in the official layout, plain pair files, and
 * the suite the project generates itself from classical constructions.
 */
package io.expresso.suite;
