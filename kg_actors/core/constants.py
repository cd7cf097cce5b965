"""Every number the spec names, once.

Budgets are exact rendered characters (render == charge); client limits are in
the client's own unit. Change a number here and nowhere else.
"""

# Budgets (spec 000 "Size Accounting").
MAX_CHARS_PER_LEVEL = 22_000
READ_CHAR_BUDGET = 50_000
SEARCH_CHAR_BUDGET = 10_000
COMPACTION_TARGET_RATIO = 0.8
FRESH_BUDGET_RATIO = 0.30
ARCHIVED_BUDGET_RATIO = 0.30
RESURRECTION_MARGIN = 0.05
REBALANCE_MAX_SWAPS = 3
ORPHAN_GRACE_DAYS = 365

# Scoring (spec 000 "Auto-Compaction").
SCORE_WEIGHT_RECENCY = 0.25
SCORE_WEIGHT_CONNECTEDNESS = 0.40
SCORE_WEIGHT_USEFULNESS = 0.35
IN_DEGREE_WEIGHT = 0.66
OUT_DEGREE_WEIGHT = 0.33
ACTIVE_EDGE_WEIGHT = 1.0
ARCHIVED_EDGE_WEIGHT = 0.2
HUB_FLOOR_WEIGHT = 0.5
USEFUL_HALF_LIFE_DAYS = 90
DAY_SECONDS = 86_400

# Ids (spec 003 "Edge and Node ID Conventions").
NODE_ID_MAX_LEN = 128
ENDPOINT_MAX_LEN = 256
REL_MAX_LEN = 64
NODE_ID_TARGET_WORDS = 5
NODE_ID_NUDGE_WORDS = 6
NODE_ID_REFUSE_WORDS = 7
GIST_SOFT_LIMIT = 300
# Hard ceilings so one request cannot bloat the store; far above any real lesson.
GIST_HARD_LIMIT = 20_000
NOTE_HARD_LIMIT = 20_000
SEARCH_NOTES_INDEX_CHARS = 8_000  # of a node's notes, in order: what search indexes (core/search.indexed_notes)
LIST_MAX_ITEMS = 200
QUERY_MAX_CHARS = 4_000

# Sessions.
SESSION_ID_HEX = 8
SESSION_TTL_SECONDS = 24 * 3600
# At most this many sessions are kept (the least recently active let go first, at load and on the tick):
# each holds what it was shown, ~15-30 KB in memory and ~17 KB in sessions.json on a 220-node project, and
# heavy automation (short `claude -p` runs, subagents) opened ~5,000 a day (a 52 MB file, 186 MB RSS).
# A person's sessions of a day are far fewer; one let go costs its agent a refused write or a gist shown
# again, and a new session opens for its next call.
SESSIONS_KEPT = 1_000
# A session active this recently is never let go for the count: its agent is likely mid-task.
SESSION_SPARED_SECONDS = 600
# Per session: the nodes it was shown (and its view stamps) kept, the least recently shown let go first.
# More gists than a harness's context holds (Claude Code's 200K tokens at ~40 a gist): the first of them
# were compacted out of the agent's context meanwhile, so a repeat is no repeat to it; a view stamp let
# go costs at most one refused write, which shows the node. Without it sessions.json grew with every
# write any session made (each is pushed to every live session) for as long as a session lived.
SEEN_KEPT = 5_000

# kg_useful.
LIKES_GUIDANCE_PER_SESSION = 5
MAX_LIKES_PER_SESSION = 10
EXACT_DEBT_NODES = 1_000  # up to this many nodes the preload's DEBT line is this version's, not the tick's
EXACT_COUNT_EDGES = 2_000  # under this many edges a reply counts the live ones afresh (~1 ms), not a recent count
RENAMED_AWAY_KEPT = 100  # per session: renames of nodes it saw, kept to tell a write under the old id
MAINTENANCE_CREDIT_MAX_PER_NODE = 3
MAINTENANCE_CREDITS_PER_PASS = 15
INSTANCE_OF_REL = "instance-of"

# kg_progress.
PROGRESS_TRAIL_MAX = 20
PROGRESS_TRAIL_CLIP = 240
PROGRESS_TRAIL_LIST_ITEMS = 8
MAINTENANCE_TASKS = frozenset({"maintain", "chore"})

# Cross-session pushes and kg_sync.
MAX_PUSHED = 3
PUSH_GIST_CLIP = 300
SYNC_GIST_CLIP = 100

# Gist history kept for the churn guard.
GIST_TS_MAX = 8

# Write-time hints.
HINT_MIN_OTHER_NODES = 10
NEAR_DUPLICATE_RATIO = 0.50
# How deep into each term's ranking the near-duplicate hint and prompt recall look (full search looks at all).
RANK_SCAN_DEPTH = 200
HINT_TERMS_PER_STEP = 8  # probe terms a write's near-duplicate check scores between two pauses
# From this many nodes a graph's first search index is built in a child process (index_process.py):
# ~0.4 s of CPU at 1,000 nodes, less than the child's start and the pickles' round trip below that.
INDEX_PROCESS_MIN_NODES = 2_000
# From this many nodes a scan of the store for secrets a hand edit left runs in a child process (held_scan.py):
# ~0.3 ms of CPU a node.
SECRET_SCAN_PROCESS_MIN_NODES = 500
SEARCH_ORDER_AHEAD_MIN = 64  # holders from which the index keeps a term's rank order per write (term_order.py)

# Decision logs: rotated once to <name>.prev past these sizes.
RECALL_LOG_MAX_BYTES = 8 * 1024 * 1024
# server.log past this is rotated to server.log.prev (at a start, on the tick): a server running for
# weeks, or restarted often, appended to it for good.
SERVER_LOG_MAX_BYTES = 8 * 1024 * 1024
USEFUL_LOG_MAX_BYTES = 2 * 1024 * 1024
CHORES_LOG_MAX_BYTES = 4 * 1024 * 1024

# The save tick's fold rewrites a graph's whole file (~0.2-0.4 s of the interpreter at 10,000 nodes, which the
# replies meanwhile share): a large file's waits while its journal is small beside it and the file is recent.
FOLD_ALWAYS_BELOW_BYTES = 1 << 20  # a file under this folds on every tick that finds it changed (~20 ms)
FOLD_JOURNAL_SHARE = 0.25  # else: once the journal is this share of the file (a start replays it)
FOLD_MAX_WAIT_SECONDS = 600.0  # or once the file is this old (someone reading the JSON sees it this recent)

# Actors.
MAILBOX_SIZE = 256
MAILBOX_BURST = 64  # messages an actor of quick messages handles per scheduling round
# MCP requests served at once: a write's wait for its fsync overlaps the other calls' work (32 sessions,
# six paired rounds against 1: median 111.5 -> 120.6 ops/s, bench/RESULTS.md); each round stays short for hooks
MCP_CONCURRENT_REQUESTS = 4
MCP_QUEUE_MAX_WAIT = 30.0  # s an MCP request waits for its turn before it is answered "busy" (clients give up at 60)
# A request body past this is refused (413): a node at the hard limits (20,000-char gist, 200 notes of 20,000) is
# ~4 MB of JSON; past twice that, refuse.
BODY_MAX_BYTES = 8 * 1024 * 1024
MCP_QUEUE_MAX_WAITING = 256  # MCP requests waiting for their turn; one more is answered "busy" at once
# A write's compaction is owed (compaction_schedule.py): paid once a graph's mailbox was quiet this long,
COMPACTION_QUIET_SECONDS = 0.05
# or before its next message once owed this long, or once the level is this far over its budget: a level under
# steady writes is over its budget at most this long and this much (a full read shows every gist).
COMPACTION_DEFER_MAX_SECONDS = 1.0
COMPACTION_OVERSHOOT_RATIO = 1.5
# A compaction step waits at most this for the loop to be idle (compaction_schedule): a write in progress takes
# 3-4 ms at 10,000 nodes, and 2 ms let two steps or parts land inside most writes while a plan was made or carried
# out (400-put runs, put p99 at 10,000: 2 ms 5.2-6.1, 5 ms 5.1-5.5); a saturated loop plans that much slower.
COMPACTION_STEP_WAIT_MAX = 0.005
# Real time the loop must have had nothing to do before a planning step (compaction_schedule.when_idle).
COMPACTION_STEP_IDLE = 0.0005
# Moves per change when a plan made beside the messages is carried out: a write arriving meanwhile waits for
# one part (24 moves took 0.5-1.0 ms, 8 take 0.4-0.6; the slowest puts of a 10,000-node burst: bench/RESULTS.md).
COMPACTION_COMMIT_PART = 8
HOOK_PRIORITY_MAX_WAIT = 0.05  # s a bulk step waits for the hook replies in flight
HOOK_HOLD_MAX_SECONDS = 1.0  # a hook request's first bytes hold bulk work at most this long (curl --max-time 1)
# s a SessionStart reply waits for its graphs' first load: the hook gives the server 5 s, and a 20,000-node store
# moved over took 4-9 s to load and settle on a busy 2-core machine; a graph not loaded by then is said to be loading.
PRELOAD_LOAD_WAIT = 2.5
# How long a project's load waits for the user graph's (its edges to user nodes are cleaned against it) before
# it serves and cleans them later: under PRELOAD_LOAD_WAIT, so a preload held by a big user graph gets the project.
PROJECT_WAITS_FOR_USER = 1.0
ROOT_CACHE_SECONDS = 30.0  # a cwd's project root is resolved again after this
ROOT_CACHE_SIZE = 1024
SHUTDOWN_GRACE_SECONDS = 10.0

# Search
SEARCH_MAX_UNIGRAMS = 32
SEARCH_MAX_BIGRAMS = 32
SEARCH_BIGRAM_MIN_CHARS = 5
SEARCH_WEIGHT_ID = 3
SEARCH_WEIGHT_GIST = 2
SEARCH_WEIGHT_BODY = 1
SEARCH_IDF_SHARPNESS = 1.5
SEARCH_IDF_FLOOR = 0.05  # the least a matching term weighs (base IDF), even one every node holds
SEARCH_RRF_K = 60
SEARCH_TOP_K = 5
SEARCH_MORE_K = 10
SEARCH_MAX_HOPS = 4
SEARCH_PATH_HUB_DEGREE = 48  # edges from which a node is where connection paths meet, not a way through
SEARCH_QUERY_ECHO_MAX = 200
NEAR_DUPLICATE_MIN_SCORE = 0.02
SMEAR_MIN_WORD_CHARS = 5  # a word the debt's smear count looks at (a whole word, not a stem)
HUB_MIN_STEM_CHARS = 4  # a short product name (redis stems to "redi", helm) is a hub as often as any
HUB_MIN_HOLDERS = 6
HUB_MIN_HOLDER_SHARE = 0.08
HUB_MAX_HOLDER_SHARE = 0.25
HINT_GIST_CLIP = 120

# Compaction
# Tentative rebalance swaps one run may score (each costs a re-score of the pool).
REBALANCE_MAX_TRIALS = 12

# Debt
DEBT_STALENESS_FULL_DAYS = 14
DEBT_ACTIVITY_FULL_DAYS = 4
DEBT_ACTIVITY_WINDOW_DAYS = 7
DEBT_ACTIVITY_FLOOR = 0.4
DEBT_DEFICIT_FLOOR = 0.25
DEBT_WEIGHT_OVERSIZED = 1.0
DEBT_WEIGHT_UNCONNECTED = 0.5
DEBT_WEIGHT_LONG_IDS = 0.5
DEBT_WEIGHT_DANGLING = 0.5
DEBT_WEIGHT_LIFT = 0.25
DEBT_WEIGHT_SMEAR = 0.08
DEBT_SMEAR_CAP = 0.25
DEBT_LEVEL_HIGH = 0.5
DEBT_LEVEL_MED = 0.3
DEBT_SMEARED_TOP = 3
DEBT_LONG_ID_EXAMPLES = 3
LIFT_CLUSTER_MAX = 5
LIFT_MIN_SHARED_NEIGHBOURS = 3
LIFT_KEY_MAX_HOLDERS = 8
LIFT_KEY_MAX_SHARE = 0.10
TOUCH_EXT_MAX_CHARS = 10

# Ambient recall and capture (spec 000 "Ambient Recall and Capture").
RECALL_PROMPT_MAX_CHARS = 20_000
RECALL_MIN_PROMPT_CHARS = 8
RECALL_MIN_TERM_CHARS = 3
RECALL_VAGUE_WORDS = 2  # a typed question of at most these search words borrows its paste's error message
RECALL_MAX_TERMS = 36
RECALL_SCORE_SINGLE = 0.010
# Chosen by pre-registration 21 on an estimate of the held-out set (0.020 then), times 0.92 since a word pair no longer
# counts on top of its words (search_concepts.score_concepts): scores fell, the bar with them (bench/RESULTS-recall.md).
RECALL_SCORE_MULTI = 0.0184
RECALL_MIN_SOLO_IDF = 0.85
RECALL_MAX_HITS = 4
RECALL_RELATIVE_CUT = 0.85  # a new hit under this share of the best hit's score is a side match
RECALL_SCORE_STRONG = 0.02  # over what one term can give (1/60): the channel opens only on such a hit, or one named twice in its id/gist
# (a prompt of several terms clears it with the bar; it still decides for one-term prompts)
RECALL_SEARCH_TOP = 10
RECALL_CHANCE_FREE_WORDS = 6  # a prompt's hits need this much more score for each search word over these (chance_scale)
RECALL_CHANCE_PER_WORD = 0.05
# The bar of few words (0.016 x 0.92, as the bar above): lower, rising faster; a prompt takes the lower bar (multi_bar).
RECALL_SCORE_FEW = 0.01472
RECALL_CHANCE_FEW_PER_WORD = 0.095
RECALL_GENERAL_ASK_SCALE = 2.5  # a request for general know-how needs this much more score (core/asks.py)
RECALL_TASK_ASK_SCALE = 1.5  # ... a task to carry out ("Add a ...", "Rename ..."), this much (core/asks.py)
RECALL_ID_BONUS = 0.5  # ranking only: a hit whose id the prompt names wholly (by IDF) ranks this share higher
RECALL_TERM_BONUS = 0.4  # ranking only: each prompt term a hit matches beyond its first adds this share of its score
RECALL_FAMILY_WEIGHT = 0.8  # a prompt word found as another member of its stem family (core/expand.py)
RECALL_RELATED_WEIGHT = 0.4  # ... or as a related term of the table: evidence, weaker than the word
RECALL_ALT_DEPTH = 50  # holders scanned per family/related alternative (the word itself: RANK_SCAN_DEPTH)
RECALL_MAX_ALTERNATIVES = 12  # terms looked up per prompt word, itself included: bounds the work
RECALL_CHAR_BUDGET = 2_500
# recall_gate's model (it reads each candidate's likeness in meaning to the prompt, core/meaning.py): chosen on
# memories 2-13 and judged on memories 14-15 by pre-registration 28, the model then refit on memories 1-15 and judged
# on memory 16 by pre-registration 29 (bench/RESULTS-recall.md):
RECALL_GATE_VETO = 0.2  # a new hit the gates chose goes when the model gives it less
RECALL_GATE_BRING = 0.3  # where the gates choose nothing new, the model's likeliest candidate comes alone at this
RECALL_GATE_BESIDE = 0.2  # beside the new hits kept, the model's likeliest other candidate comes at this
OFFER_HOLD_SECONDS = 30.0  # a gist an undelivered hook reply shows is held from the session's other replies
FILE_RECALL_MAX_NODES = 3
FILE_RECALL_CHAR_BUDGET = 1_200
FILE_RECALL_MAX_PER_WINDOW = 3
FILE_RECALL_WINDOW_SECONDS = 600
# Recall before a shell command runs (PreToolUse, issue #12).
COMMAND_RECALL_MAX_NODES = 2
COMMAND_RECALL_CHAR_BUDGET = 800
COMMAND_RECALL_MAX_CANDIDATES = 200  # nodes checked per key: a common program and subcommand stay cheap
NUDGE_FILE_MIN_SESSIONS = 2
NUDGE_WEB_MIN_COUNT = 2
NUDGE_COOLDOWN_SECONDS = 600
NUDGE_MAX_PER_SESSION = 3
NUDGE_TARGET_COOLDOWN_SECONDS = 86_400
TOOL_EVENTS_MAX_KEYS = 500
TOOL_EVENT_SESSIONS_KEPT = 10
