"""Weights of recall_gate's model, written by bench/train_recall_gate.py (do not edit by hand).

Fitted on 74,518 candidates (3,646 wanted) of 105 splits: memories 1-11 of bench/
(recall_data and the splits on its memory, recall_memory2_* .. recall_memory11_*). Refit after changing
recall_gate.FEATURES or what they read. RANGES: each feature's least and greatest value in training; the
model reads a value held within them (a linear model far outside what it was fitted on says nothing).
LIKE_UNKNOWN: the mean likeness in meaning of the candidates in training, read where none can be told.
"""

BIAS = -9.653053893957003
LIKE_UNKNOWN = 0.20758806539645125
WEIGHTS = (
    68.93239115196158,  # score
    2.045449160028909,  # ratio_thr
    5.14068051925253,  # ratio_best
    1.0158897307098242,  # lead
    0.13314983525418023,  # rank
    -0.052744701328692835,  # unseen_rank
    -0.06885899206930901,  # rrank
    0.5962743205456932,  # matched
    -0.0854155074916039,  # idf
    -0.5795395875638376,  # title
    1.6702759308697104,  # id_share
    -0.04623826382362195,  # nw
    -1.2141762569074188,  # ask
    3.506510159209382,  # cov
    -0.6705501334228707,  # evidence
    0.5184658470837147,  # strong
    -0.05829631512281183,  # top_seen
    0.6659918280488842,  # q
    -0.47149412035786264,  # rankscore
    -0.7495004296258809,  # idsum
    0.21364668013413685,  # bigram
    -0.04930222969307466,  # titled_terms
    -0.38747156159995266,  # over
    0.25122604804905685,  # gap12
    0.003787393253403585,  # id_df
    -0.044741437951528455,  # id_min_df
    -0.01693951490693204,  # gist_len
    0.033946344638198823,  # notes
    7.28221053071108,  # like
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
    (0.013775672155880847, 46.610872510518846),  # rankscore
    (0.0, 11.509816034349306),  # idsum
    (0.0, 1.0),  # bigram
    (0.0, 14.0),  # titled_terms
    (0.0, 6.0),  # over
    (0.0, 4.305700548398249),  # gap12
    (1.0, 108.5),  # id_df
    (1.0, 39.0),  # id_min_df
    (45.0, 160.0),  # gist_len
    (0.0, 2.0),  # notes
    (-0.3643614216888255, 0.8891424565459735),  # like
)
