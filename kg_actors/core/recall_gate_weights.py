"""Weights of recall_gate's model, written by bench/train_recall_gate.py (do not edit by hand).

Fitted on 74,606 candidates (3,665 wanted) of 105 splits: memories 1-11 of bench/
(recall_data and the splits on its memory, recall_memory2_* .. recall_memory11_*). Refit after changing
recall_gate.FEATURES or what they read. RANGES: each feature's least and greatest value in training; the
model reads a value held within them (a linear model far outside what it was fitted on says nothing).
"""

BIAS = -7.243308531248029
WEIGHTS = (
    78.71720982903508,  # score
    1.402684535462083,  # ratio_thr
    3.944265629117382,  # ratio_best
    1.1300478551147743,  # lead
    0.09961350481340883,  # rank
    -0.04484853020013983,  # unseen_rank
    -0.12187964540060228,  # rrank
    0.7270030163348756,  # matched
    0.37080474534593405,  # idf
    -0.114463390964691,  # title
    3.072585820410159,  # id_share
    -0.07843037549880479,  # nw
    -1.4422310343687503,  # ask
    4.883788331170205,  # cov
    -0.520135767476384,  # evidence
    0.2678704149305821,  # strong
    0.07296204781462236,  # top_seen
    0.8248265067738347,  # q
    -0.567163115128071,  # rankscore
    -0.357964983980579,  # idsum
    -1.2707134003465217,  # bigram
    0.004744444479107018,  # titled_terms
    -0.1512884684124331,  # over
    0.004813952658577054,  # gap12
    0.0009141273273804892,  # id_df
    -0.02479719055064995,  # id_min_df
    -0.01696430703281248,  # gist_len
    -0.19460040497855538,  # notes
)
RANGES = (
    (0.0002455295982693685, 0.30801110189767716),  # score
    (0.012276479913468424, 9.132457704341064),  # ratio_thr
    (0.010058292188457135, 1.0),  # ratio_best
    (0.0, 8.480186415056266),  # lead
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
    (0.01267361838341038, 71.48343091111359),  # rankscore
    (0.0, 11.509816034349306),  # idsum
    (0.0, 1.0),  # bigram
    (0.0, 14.0),  # titled_terms
    (0.0, 9.0),  # over
    (0.0, 8.480186415056266),  # gap12
    (1.0, 108.5),  # id_df
    (1.0, 39.0),  # id_min_df
    (45.0, 160.0),  # gist_len
    (0.0, 2.0),  # notes
)
