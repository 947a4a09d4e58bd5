package io.expresso.model;

import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.Device;
import org.junit.jupiter.api.Test;

/**
 * Each built-in BREC model at its defaults has the trainable parameters of the model BREC's own
 * script constructs, less what no input of that script can reach (rows of embedding tables never
 * indexed, padding rows, projection columns fed only by them). BREC's side is counted by
 * {@code scripts/brec-parameter-counts.py} from BREC's code (docs/gnn-evaluation.md, "Parameters
 * against BREC's construction").
 */
class BrecParameterCountsTest {

  private static long parameters(Architecture a) {
    try (GraphModel m = GraphModel.create(ModelSpec.defaults(a), Head.EMBEDDING, Device.cpu(), 0L)) {
      return m.parameterCount();
    }
  }

  @Test
  void everyCountedModelHasExactlyTheParametersBrecsInputsReach() {
    for (Architecture a : Architecture.values()) {
      BrecConstruction brec = BrecConstruction.of(a);
      if (a == Architecture.I2GNN || a == Architecture.GSN || a == Architecture.SSWL_P
          || a == Architecture.GRAPHORMER) {
        continue; // within 0.3 %, 0.7 %, 0.03 % and 0.6 %: below
      }
      if (brec.trainable() > 0) {
        assertThat(parameters(a)).as(a.cliName()).isEqualTo(brec.reachable());
      } else {
        assertThat(brec.differences()).as(a.cliName() + " is not counted: it must say why").isNotBlank();
      }
    }
  }

  @Test
  void kpGnnHasTheParametersOfBrecsKpGinThatItsInputsReach() {
    // BREC's KP-GIN (K 8, 8 layers × 32, --wo_path_encoding): 93,838 trainable, of which 64,180 no
    // input reaches (path-encoding tables, hop-k edge rows other than 2, edge-type rows, padding rows,
    // the 16 edge-projection weights fed by the padding edge type)
    assertThat(parameters(Architecture.KP_GNN)).isEqualTo(93_838 - 64_180);
  }

  @Test
  void ngnnDeHasTheParametersOfBrecsNestedGin() {
    // BREC's NestedGIN at h 8, 6 layers × 128, d 16: the GIN MLPs, lin1 and lin2 (its norms are not affine)
    assertThat(parameters(Architecture.NGNN_DE)).isEqualTo(201_488);
  }

  @Test
  void ngnnHasTheParametersOfBrecsNestedGinWithoutNodeLabels() {
    // BREC's NestedGIN at --h=1 --layers=6 --width=16 --node_label=no: conv1 Linear(1, 16) and
    // Linear(16, 16), five GINConvs of two Linear(16, 16), lin1 16 → 16, lin2 16 → 16; bn2 not affine
    assertThat(parameters(Architecture.NGNN)).isEqualTo(3_568);
  }

  @Test
  void dsAndDssGnnHaveTheParametersOfEsansNetworksOnEgoNetsPlusThreeColumns() {
    // SUN/utils.get_model at test_BREC_search_ds.py's and _dss.py's flags with in_dim 3, the columns
    // ego_nets_plus gives (the committed in_dim=1 cannot take them)
    assertThat(parameters(Architecture.DS_GNN)).isEqualTo(44_400);
    assertThat(parameters(Architecture.DSS_GNN)).isEqualTo(41_616);
  }

  @Test
  void gsnHasBrecsGsnParametersWithOneOverflowSlotPerCountColumn() {
    // BREC's GNNSubstructures (GSN_sparse, general messages, local ids, 4 layers × 64, d 16): the 12
    // count columns one-hot over the values of its dataset, 273 slots, into layer 0's message MLP
    // only; 5 final projections (the input's and each layer's). 110,432 trainable. Expresso adds an
    // overflow slot per count column for counts BREC's dataset never holds: 12 × 64 weights
    assertThat(GsnCountEncoding.brecWidth()).isEqualTo(273);
    assertThat(GsnCountEncoding.width()).isEqualTo(273 + 12);
    assertThat(BrecConstruction.of(Architecture.GSN).reachable()).isEqualTo(110_432);
    assertThat(parameters(Architecture.GSN)).isEqualTo(110_432 + 12 * 64);
  }

  @Test
  void sunHasTheParametersOfBrecsSunNetworkOnEgoNetsPlusThreeColumns() {
    // SUN/utils.get_model at test_BREC_search_sun.py's flags with in_dim 3: per layer four
    // OriginalGINConvs and six u MLPs (Linear, BN, Linear), four batch norms; Linear(32, 64),
    // Linear(64, 16). The committed in_dim=1 gives 191,376 (10 × 32 × 2 fewer) and cannot run
    assertThat(parameters(Architecture.SUN)).isEqualTo(192_016);
  }

  @Test
  void deltaLgnnHasTheParametersOfSparseWlsNetGin() {
    // SparseWL/neural_higher_order/BREC/test_BREC.py's NetGIN(dim 16): layer 1's two GINs on the 3
    // atomic types (Linear(3, 16), BN, Linear(16, 16), BN, ε: 401 each) and merge MLP (864), five more
    // layers (609 per GIN, 864), Set2Set's LSTM(32, 16) (3,200), fc1 Linear(32, 16), fc4 Linear(16, 16)
    assertThat(parameters(Architecture.DELTA_K_LGNN)).isEqualTo(2 * 401 + 864 + 5 * (2 * 609 + 864) + 3_200 + 528 + 272)
        .isEqualTo(16_076);
  }

  @Test
  void kcSetGnnHasTheParametersOfBrecsKcSetGnnThatItsForwardReaches() {
    // KCSetGNN at BREC.yaml (k 3, c 2, 4 Parallel bipartite layers × 64, 2 GINEConv inner layers): 362,578
    // trainable; less the embedding rows no input reads 254,306 (the count); less pos_encoder (192, never
    // called) 254,114. Rows read: input 1, edge 1, the set encoder's level 3 and components 2 (× 64), the
    // read-out's 3 and 2 (× 16); two GINEConvs (ε, 2 × 64², edge_linear 64² + 64), output and set encoders 64²
    // each; per bipartite layer nn1, nn2 (2 × 64² each), four Linear(64, 32) with bias, nn_out 128² + 128 × 64;
    // kc_gate 32 × 64, output_decoder0 128 × 64, output_decoder 192 × 64 + 64 × 16 + 16
    long perLayer = 4 * 4_096 + 4 * 2_080 + 16_384 + 8_192;
    assertThat(parameters(Architecture.KC_SET_GNN)).isEqualTo(
        2 * 64 + 2 * (1 + 2 * 4_096 + 4_160) + 2 * 4_096 + 5 * 64 + 4 * perLayer + 5 * 16 + 2_048 + 8_192 + 13_328)
        .isEqualTo(254_306 - 192);
  }

  @Test
  void gnnAkHasTheParametersOfBrecsGnnAsKernelThatItsForwardReaches() {
    // GNNAsKernel at BREC.yaml's config: 1,214,076 trainable; less the embedding rows no input indexes
    // (input and edge DiscreteEncoders: 10 × 500 rows where the constant 1 and edge type 0 read one;
    // 13 of the hop embedder's 20 rows at hops 6) 93,468, the count; less what the forward never
    // calls (4 traditional GINEConvs 8,708, 4 VNUpdates 8,704, 17 batch norms after a last linear
    // layer without activation 1,312) 74,744. Per outer layer: hop rows 7 × 16, two GINEConvs
    // (ε, 48 × 48, BN 48, 48 × 48) and their norms, output encoder 48 × 32 + 32, two transforms
    // 32 × 32 + BN, three gates 16 × 32 + 32, out encoder 96 × 32, norm: 18,162
    assertThat(parameters(Architecture.GNN_AK)).isEqualTo(74_744);
    assertThat(BrecConstruction.of(Architecture.GNN_AK).reachable()).isEqualTo(93_468 - 18_724);
    assertThat(4L * 18_162 + 32 + 4 * 48 + 4 * 64 + (32 * 32 + 64 + 32 * 16 + 16)).isEqualTo(74_744);
  }

  @Test
  void sswlPHasBrecsSwlParametersWithItsUnreachableDistanceRow() {
    // SWL/test_BREC.py's GNN at test_BREC_search.py's flags (SSWL_P, max_dis 8, 8 layers × 64):
    // 236,649 trainable; its 16 BondEncoders (13 rows × 64 each, no edge features reach them) and
    // the pooling layer's eps (gin=False never reads it) are 13,313 no input reaches. Per layer 3 eps,
    // 3 MLPs Linear-BN-Linear (8,448 each), a BN (128); the pooling layer's MLP and BN, Linear(64, 128),
    // Linear(128, 16); Embedding(9, 64) plus the unreachable pairs' own row: 64 more than BREC's 223,336
    BrecConstruction brec = BrecConstruction.of(Architecture.SSWL_P);
    assertThat(brec.reachable()).isEqualTo(223_336);
    assertThat(parameters(Architecture.SSWL_P)).isEqualTo(223_336 + 64);
  }

  @Test
  void dropGnnHasTheParametersOfBrecsDropGin() {
    // DropGNN/test_BREC.py's DropGIN at test_BREC_search.py's 10 layers × 16, OUTPUT_DIM 16: GINConv
    // MLPs Linear(1|16, 16), BN, Linear(16, 16) (336, then 608 with the BN after each conv), and 11
    // read-outs Linear(1, 16) + 10 × Linear(16, 16): 368 + 9 × 608 + 32 + 2,720
    assertThat(parameters(Architecture.DROP_GNN)).isEqualTo(8_592);
  }

  @Test
  void osanHasTheParametersOfBrecsOsanThatReachItsLoss() {
    // BREC's OGBGNN originalgin 8 x 64 (147,864) and GCN_emb scorer (44,200): 192,064; less 2 x 173 unindexed
    // AtomEncoder rows and the bond encoder (22,976), the edge_encoders (12,480) and bn3/lin_node (1,428)
    assertThat(parameters(Architecture.OSAN)).isEqualTo(192_064 - 22_976 - 12_480 - 1_428);
  }

  @Test
  void graphormerHasBrecsGraphormerParametersWithTablesForAll400Pairs() {
    // BREC's Graphormer at test_BREC_search.py's flags: 938,976 trainable, of which 464,192 no input of its
    // 320 pairs reads (atom rows but one, edge rows but two, degree rows but 16 of 512 twice, spatial rows
    // but 23 of 512). Expresso's tables: 32 degree rows twice (+2,560), 32 spatial rows (+72); the edge
    // padding row stays frozen as BREC's padding_idx leaves it (-8). 12 layers of 39,200, final norm 160,
    // out 1,296, graph token 80, virtual distance 8, atom 80, edge 8
    long expected = 938_976 - 464_192 + 2 * (32 - 16) * 80 + (32 - 23) * 8 - 8;
    assertThat(expected).isEqualTo(12 * 39_200 + 160 + 1_296 + 80 + 8 + 80 + 8 + 2 * 32 * 80 + 32 * 8);
    assertThat(parameters(Architecture.GRAPHORMER)).isEqualTo(expected);
    assertThat((double) expected / BrecConstruction.of(Architecture.GRAPHORMER).reachable()).isBetween(1.0, 1.006);
  }

  @Test
  void i2gnnHasBrecsI2gnnParametersWithTheOneEmbeddingRowNoLabelReads() {
    // BREC's count_models.I2GNN at h 8, 5 layers × 32: 60,544 trainable, of which 6,720 no input
    // reaches (transform_before_conv.0, 29 of 50 embedding rows per layer); Expresso builds 22 rows
    // per layer where the labels read 21 (row h + 2 = 10 is never addressed): 5 × 32 more
    assertThat(parameters(Architecture.I2GNN)).isEqualTo(60_544 - 6_720 + 5 * 32);
    assertThat(BrecConstruction.of(Architecture.I2GNN).reachable()).isEqualTo(53_824);
  }
}
