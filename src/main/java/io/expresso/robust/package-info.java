/**
 * The adversarial-robustness study of Campi et al. end to end: scales, the jobs it is made of
 * (train a count regressor, attack it and score transfer to the other seeds' models, the
 * out-of-distribution rows), the in-process executor, and the report's data (AUC table,
 * success-versus-budget plots, OOD table, Welch t-tests). {@link io.expresso.robust.StudyJobs}
 * names and sizes the jobs for both the experiment and {@code expresso publish train|attack}. It
 * composes the science packages (count, attack, model, train) and knows no Kafka: the study on the
 * fleet (executor, evaluators, model store, progress) is {@code robust.fleet}.
 */
package io.expresso.robust;
