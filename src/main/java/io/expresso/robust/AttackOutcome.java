package io.expresso.robust;

import io.expresso.attack.AttackCampaign;

/**
 * What an attack job produced.
 *
 * @param summary success rates per budget, NR, and every per-graph result
 * @param transfers per result and budget: the example the attack returned at that budget is
 *     adversarial for the attacked model and every model of {@link AttackJob#transferTo()}
 * @param transferRate per budget: attacked graphs whose example within the budget transfers
 * @param nrTransfer normalised AUC of {@code transferRate}
 */
public record AttackOutcome(AttackJob job, AttackCampaign.Summary summary, boolean[][] transfers,
    double[] transferRate, double nrTransfer, double seconds) {}
