"""Closing the vocabulary gap between a prompt and a lesson, by general means (issue #12).

A person asks "the page takes forever to load"; the lesson says "slow query, N+1". Exact
stems miss that. Two weak expansions, each scored below the word itself (search_concepts.py):

* **stem families**: Snowball leaves some derivations apart (verify → `verifi`, verification →
  `verif`; expiry → `expiri`, expire → `expir`; optimise → `optimis`, optimize → `optim`). A
  family key strips one such ending; the search index keeps family key → the stems it holds, per
  write. Agent nouns (-er) and a final -e are left alone: they joined differ ~ diff, state ~ stats.
* **related terms**: a small table of software-engineering near-synonyms, one group a line
  (slow ~ latency ~ performance, crash ~ panic ~ exception, deploy ~ release ~ ship, login ~ auth,
  db ~ database ~ postgres). It is domain-general on purpose: words any project's lessons and
  questions use for the same thing, not one project's vocabulary. A group holds words that can
  stand in for each other; a word may sit in several groups.
"""

from __future__ import annotations

from functools import lru_cache

from .terms import stem

# Each line: words that a person and a lesson use for the same thing in software work.
# Keep groups tight (a loose group costs precision on every prompt that uses its words), and leave
# out words whose stem is a common word of its own (settings → `set`, container → `contain`,
# localization → `local`, requirements → `requir`), stopwords ("down"), and words with a second common
# meaning in software (spec, client, snapshot, lookup, gateway, tag, card, cluster).
RELATED_GROUPS = """
slow latency performance sluggish laggy perf throughput speed
timeout hang hung stuck freeze frozen stall stalled unresponsive
crash panic exception traceback segfault abort die died dies killed
error failure fail failing broken
deploy deployment release ship rollout publish
rollback revert undo downgrade
login logout signin auth authentication authenticate sso oauth
authorization permission permissions access role rbac forbidden
db database sql postgres postgresql mysql sqlite
cache caching redis memcached
memory ram oom heap leak
config configuration configure conf
env environment envvar dotenv variable variables
test tests testing pytest unittest jest
lint linter linting ruff eslint flake8 pylint
format formatter formatting prettier
ci pipeline workflow workflows jenkins
review reviewer approve approval codeowners
kubernetes k8s kubectl helm
docker dockerfile image images
dependency dependencies package packages library libraries lockfile
upgrade update bump
delete remove drop wipe purge erase
user users customer customers account accounts
secret secrets password passwords credential credentials apikey token tokens
log logs logging logger
monitoring monitor metrics alert alerting observability dashboard
outage downtime incident unavailable uptime
email mail smtp
payment payments pay charge charged billing billed
refund refunds chargeback dispute
invoice invoices receipt
cron schedule scheduled scheduler nightly
queue queues broker celery rabbitmq sqs kafka
job jobs task tasks
migration migrations migrate schema alembic
mobile phone ios android device
frontend browser ui web
css style styles styling stylesheet
image images picture pictures photo photos img
endpoint endpoints route routes handler handlers api
dns resolve resolver resolving hostname nameserver
certificate certificates cert tls ssl https
ingress proxy nginx loadbalancer
scale scaling autoscale autoscaling autoscaler hpa replicas
retry retries retried backoff
duplicate duplicated twice double repeated idempotent idempotency
timezone timezones utc tz dst daylight
translation translations i18n l10n
accessibility a11y aria screenreader
bundle bundler webpack vite rollup esbuild
limit limits quota throttle throttling ratelimit
storage disk volume bucket s3 blob
backup backups restore dump
concurrent concurrency parallel race simultaneous
flaky intermittent randomly sporadic nondeterministic
version versions semver
webhook webhooks callback callbacks
cost costs bill spend expensive
vulnerability vulnerabilities cve exploit injection xss csrf
encrypt encryption encrypted crypto
colour color
behaviour behavior
optimise optimize optimisation optimization
licence license licenses licences
""".strip().splitlines()


def _build() -> dict[str, tuple[str, ...]]:
    related: dict[str, dict[str, None]] = {}
    for line in RELATED_GROUPS:
        stems = list(dict.fromkeys(stem(w) for w in line.split()))
        for s in stems:
            bucket = related.setdefault(s, {})
            for other in stems:
                if other != s:
                    bucket.setdefault(other)
    return {s: tuple(others) for s, others in related.items()}


RELATED: dict[str, tuple[str, ...]] = _build()

# Endings Snowball leaves on one member of a derivational family (see the module doc).
_FAMILY_ENDINGS = ("abl", "ibl", "is", "iz", "i")
_FAMILY_MIN = 4  # the key must keep this many letters: `user` → `us` would join unrelated words
# ... and one more for a final -i (Snowball's -y): verifi ~ verif, expiri ~ expir join, while a short
# word's -y adjective is another word (ready ~ read, party ~ part, handy ~ hand, needy ~ need).
_FAMILY_MIN_I = 5


def family(term: str) -> str:
    """A stem's family key: one derivational ending off, when enough is left; else the stem."""
    if not term.isalpha():
        # Word pairs and numbers: never cached. The index asks for every new term, and rewritten gists
        # bring new pairs ("pass 345") without end: cached, they grew a soak's server 0.2-0.4 MiB a minute.
        return term
    return _word_family(term)


def family_key(term: str) -> str:
    """`family` without its cache, for callers that ask once per term (the search index)."""
    if not term.isalpha():
        return term
    for ending in _FAMILY_ENDINGS:
        if term.endswith(ending) and len(term) - len(ending) >= (_FAMILY_MIN_I if ending == "i" else _FAMILY_MIN):
            return term[: -len(ending)]
    return term


_word_family = lru_cache(maxsize=1 << 16)(family_key)


def related(term: str) -> tuple[str, ...]:
    """The stems the table says stand in for this stem (none for most)."""
    return RELATED.get(term, ())
