/**
 * Graph datasets for classification under a benchmarking protocol: the CSL expressivity dataset,
 * TU datasets from disk, a generated dataset with planted isomorphic duplicates, the audit's clean
 * version of any of them ({@link io.expresso.dataset.DatasetSpecs}), stratified folds, and which test
 * graphs have an isomorphic copy in training ({@link io.expresso.dataset.Copies}).
 */
package io.expresso.dataset;
