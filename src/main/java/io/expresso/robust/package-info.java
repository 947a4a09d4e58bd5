/**
 * The adversarial-robustness study of Campi et al. end to end: scales, the jobs it is made of
 * (train a count regressor, attack it and score transfer to the other seeds' models, the
 * out-of-distribution rows), an executor that runs them in process or through Kafka, and the
 * report (AUC table, success-versus-budget plots, OOD table, Welch t-tests). {@link
 * io.expresso.robust.StudyJobs} names and builds the jobs and their task messages for both the
 * experiment and {@code expresso publish train|attack}. It composes the science packages (count,
 * attack, model, train) and knows Kafka only through its executor, evaluators and model store.
 */
package io.expresso.robust;
