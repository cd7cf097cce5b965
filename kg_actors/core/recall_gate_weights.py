"""Weights of recall_gate's model, written by bench/train_recall_gate.py (do not edit by hand).

Fitted on 86,273 candidates (4,200 wanted) of 121 splits: memories 1-15 of bench/
(recall_data and the splits on its memory, recall_memory2_* .. recall_memory15_*). Refit after changing
recall_gate.FEATURES or what they read. RANGES: each feature's least and greatest value in training; the
model reads a value held within them (a linear model far outside what it was fitted on says nothing).
LIKE_UNKNOWN: the mean likeness in meaning of the candidates in training, read where none can be told.
"""

BIAS = -10.715596501339144
LIKE_UNKNOWN = 0.20964895985270243
WEIGHTS = (
    64.11368167226972,  # score
    1.9057484957450952,  # ratio_thr
    5.669023970379261,  # ratio_best
    0.9620138415639353,  # lead
    0.1544669678202527,  # rank
    -0.04906308231213614,  # unseen_rank
    -0.06990777665407032,  # rrank
    0.5622929232172172,  # matched
    0.2742164047506526,  # idf
    -0.6054745928648384,  # title
    1.6563849173761351,  # id_share
    -0.04689267760249955,  # nw
    -1.1833990538816268,  # ask
    3.83506228695115,  # cov
    -0.586199442780192,  # evidence
    0.6071125914574046,  # strong
    -0.02246433400054798,  # top_seen
    0.8085482384427205,  # q
    -0.4653184221304759,  # rankscore
    -0.65952758142735,  # idsum
    0.15721240174592735,  # bigram
    -0.024497484410234912,  # titled_terms
    -0.38651597363924084,  # over
    0.36391346754295884,  # gap12
    0.003956491997272701,  # id_df
    -0.03950193011593329,  # id_min_df
    -0.01679139847645103,  # gist_len
    0.0627848696849372,  # notes
    7.1504083847372035,  # like
)
RANGES = (
    (0.0002455295982693685, 0.18477194977687358),  # score
    (0.01334399990594394, 5.014691080229551),  # ratio_thr
    (0.010058292188457135, 1.0),  # ratio_best
    (0.0, 4.305700548398249),  # lead
    (0.0, 9.0),  # rank
    (0.0, 9.0),  # unseen_rank
    (0.0, 9.0),  # rrank
    (0.0, 20.0),  # matched
    (0.04427821107147592, 1.0),  # idf
    (0.0, 1.0),  # title
    (0.0, 1.0),  # id_share
    (2.0, 32.0),  # nw
    (1.0, 2.5),  # ask
    (0.0, 1.0),  # cov
    (0.0, 1.0),  # evidence
    (0.0, 1.0),  # strong
    (0.0, 3.0),  # top_seen
    (0.0, 1.0),  # q
    (0.013401641582258992, 46.610872510518846),  # rankscore
    (0.0, 11.509816034349306),  # idsum
    (0.0, 1.0),  # bigram
    (0.0, 15.0),  # titled_terms
    (0.0, 8.0),  # over
    (0.0, 4.305700548398249),  # gap12
    (1.0, 108.5),  # id_df
    (1.0, 39.0),  # id_min_df
    (45.0, 160.0),  # gist_len
    (0.0, 2.0),  # notes
    (-0.3643614216888255, 0.9106518888090268),  # like
)
