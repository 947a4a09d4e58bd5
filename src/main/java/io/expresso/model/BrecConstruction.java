package io.expresso.model;

/**
 * How a built-in model at its defaults stands against the model BREC's own script constructs
 * (its {@code get_model} with the flags of its {@code test_BREC_search*.py}), as counted by
 * {@code scripts/brec-parameter-counts.py}: BREC's trainable parameters, those of them no input of
 * that script can reach (embedding rows never indexed, padding rows, projection columns fed only by
 * them), and every difference that remains, with its reason. {@code expresso models} prints it;
 * BrecParameterCountsTest pins each count.
 *
 * @param trainable BREC's {@code sum(p.numel() for p in model.parameters() if p.requires_grad)}; 0 where not counted
 * @param unreachable of those, the ones no input of BREC's script reaches
 * @param differences what still differs and why; empty when nothing does
 */
public record BrecConstruction(long trainable, long unreachable, String differences) {

  /** BREC's parameters that can reach the output: what Expresso's count is held to. */
  public long reachable() {
    return trainable - unreachable;
  }

  /** The record for {@code a}; GIN is not in BREC's table (its 1-WL bound is). */
  public static BrecConstruction of(Architecture a) {
    return switch (a) {
      case GIN -> new BrecConstruction(0, 0, "not one of BREC's models (its 1-WL bound: 0 pairs)");
      case PPGN -> new BrecConstruction(0, 0, "two input channels, adjacency and identity, where BREC feeds one,"
          + " A + I (96 parameters); validated pair by pair beside BREC's script (docs/results/brec-ppgn-fidelity.md)");
      case SUN -> new BrecConstruction(192_016, 0, "as DS-GNN: BREC's committed script builds in_dim=1 (191,376"
          + " parameters), which cannot take ego_nets_plus's 3 columns; this is the 3-column model its results need");
      case SSWL_P -> new BrecConstruction(236_649, 13_313, "an unreachable pair reads its own distance row (64"
          + " parameters) where BREC's code turns the distance into INT64_MIN and its lookup fails (the disconnected"
          + " graphs of its 3-WL subset); its 16 bond encoders (no edge features) and the pooling layer's unread eps"
          + " are not built");
      case KP_GNN -> new BrecConstruction(93_838, 64_180, "");
      case NGNN_DE -> new BrecConstruction(201_488, 0, "");
      case NGNN -> new BrecConstruction(3_568, 0, "");
      case DS_GNN -> new BrecConstruction(44_400, 0, "BREC's committed script builds in_dim=1 where its"
          + " ego_nets_plus gives 3 columns, which cannot run; this is the 3-column model its results need");
      case DSS_GNN -> new BrecConstruction(41_616, 0, "as DS-GNN: the 3-column model BREC's results need");
      case GSN -> new BrecConstruction(110_432, 0, "the counts are one-hot encoded over the values BREC's GSN dataset"
          + " holds (brec_v3_s4: Basic, Regular, Extension, 273 slots) as BREC's one_hot_unique does over the whole"
          + " dataset it loads, plus one overflow slot per count column (768 parameters) for a count that dataset never"
          + " holds, which only the pairs BREC's GSN never runs carry (CFI, 4-vertex condition, distance regular)");
      case GNN_AK -> new BrecConstruction(1_214_076, 1_139_332, "none in the network; BREC's 1,214,076 less the"
          + " embedding rows no input indexes is 93,468, of which 18,724 are modules BREC builds and its forward never"
          + " calls, not built here: traditional_gnns (8,708: mini_layers > 0 skips them), vn_aggregators (8,704: vn False), the batch"
          + " norms of MLPs whose last layer has no activation (1,312: each GINE MLP's second, each output_encoder's,"
          + " each out_encoder's, output_decoder's last); GNN-AK's radius is capped at 18 by its 20-row hop embedding");
      case DROP_GNN -> new BrecConstruction(8_592, 0, "each copy's edges are offset by the batch's vertex count, where"
          + " BREC's forward offsets them by edge_index.max() + 1, one short when the batch's last vertex is isolated"
          + " (then copies share rows: pairs 6, 24, 52, 186, 187, 203 have isolated vertices); inference runs its passes"
          + " one at a time, in order, so the seed's draws do not depend on threads; the 100 runs and"
          + " p = 2/(1 + n) are the script's, not spec keys");
      case DELTA_K_LGNN -> new BrecConstruction(16_076, 0, "BREC's script judges only its brec_v3_3wl file's 270"
          + " pairs (Basic, Regular 60-110, Extension, CFI 260-320); Expresso runs all 400");
      case KC_SET_GNN -> new BrecConstruction(362_578, 108_464, "pos_encoder (192) is not built: BREC's graphs carry no"
          + " positions and its forward skips it; k 3 and c 2 are the script's, not spec keys; the read-out's max sends a"
          + " tie's gradient to every tied set where torch_scatter's sends it to one; BREC's script judges only its"
          + " brec_v3_3wl file's 270 pairs (Basic, Regular 60-110, Extension, CFI 260-320): Expresso runs all 400");
      case I2GNN -> new BrecConstruction(60_544, 6_720, "each label embedding holds the 22 rows its spd labels can"
          + " address where BREC's holds 50 (one of the 22, h + 2, is never read: 160 parameters over BREC's reachable"
          + " count); layer 0's unused transform_before_conv is not built");
      case OSAN -> new BrecConstruction(192_064, 36_884, "BREC's 192,064 (the GIN 147,864, the I-MLE scorer"
          + " 44,200) less the embedding rows no input indexes is 169,088; of those, 13,908 are scorer modules whose"
          + " output never reaches the loss under the edge policy, not built: the three GCN edge_encoders (12,480: no"
          + " edge features) and bn3/lin_node (1,428: vertex logits only node policies read); the 20 subgraphs, I-MLE's"
          + " beta 10 and the scorer's Adam (lr 1e-3, no decay, no schedule) are the config's, not spec keys; the"
          + " script judges 320 pairs (part_dict: no 4-vertex, distance regular or CFI 320-359); Expresso runs all 400");
      case GRAPHORMER -> new BrecConstruction(938_976, 464_192, "degree tables of 32 rows (degrees 0-31, higher ones"
          + " share the last) and a spatial table of 31 distances plus unreachable, where BREC's 512-row tables are read"
          + " at the 16 degrees and 22 distances (plus unreachable) of the 320 pairs its part_dict runs (2,632 more:"
          + " Expresso runs all 400, degrees to 30); the edge encoder's padding row, read for non-adjacent pairs, is kept"
          + " at its random start as BREC's padding_idx keeps it, frozen and so not counted (8 fewer); heads 8, FFN"
          + " width = hidden and attention dropout 0.1 are fixed, BREC's values");
    };
  }
}
