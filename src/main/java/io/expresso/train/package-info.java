/**
 * Training and judging GNNs on expressiveness pairs, as BREC's evaluation code does: a fresh model
 * per pair trained as a siamese network ({@link io.expresso.train.SiameseTrainer}), then RPC or RAPC
 * on its embeddings ({@link io.expresso.train.PairEvaluator}). Cross-cutting concerns are small
 * classes the trainer calls, not flags in its loop: learning-rate plateau schedule, loss-threshold
 * early stop, divergence (non-finite loss) guard. Trainers take a cancellation token (a plain
 * {@link java.util.function.BooleanSupplier}, so this package knows nothing of the runtime) and
 * check it before every batch.
 */
package io.expresso.train;
