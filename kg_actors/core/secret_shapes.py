"""Provider key formats: secrets that are secrets wherever they stand, by their shape alone; and what a command
line or a file format says is a secret (core/secrecy.py decides with them; they are kept apart because they are
data, long and growing, not rules)."""

from __future__ import annotations

import re

# Provider formats: each is specific enough to be a secret wherever it stands. Not `\b` around them:
# `_` and letters like `é` are word characters, so `prod_AKIA...` or `ghp_..._ci` slipped through.
_L, _R = r"(?<![A-Za-z0-9])", r"(?![A-Za-z0-9])"
SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = tuple((kind, re.compile(rx)) for kind, rx in (
    ("a private key", r"(?i)-----BEGIN\s+(?:[A-Z0-9]+\s+)*PRIVATE\s+KEY(?:\s+BLOCK)?-----|PuTTY-User-Key-File-\d:"),
    ("an AWS access key id", _L + r"(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}" + _R),
    ("a GitHub token", _L + r"(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{40,255})" + _R),
    ("a GitLab token", _L + r"gl(?:pat|rt|rtr|dt|ptt|cbt|soat|ffct|agent|ft|imt|oas)-[A-Za-z0-9_-]{20,}"),
    ("a Slack token", _L + r"(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}"),
    ("a Slack webhook URL", r"hooks\.slack\.com/services/T[A-Za-z0-9]+/B[A-Za-z0-9]+/[A-Za-z0-9]{16,}"),
    # Webhook URLs that are their own credential (whoever holds one posts as the app): the token part is shown.
    ("a Discord webhook URL", r"discord(?:app)?\.com/api/webhooks/\d{17,20}/(?P<value>[A-Za-z0-9_-]{60,68})" + _R),
    ("a Microsoft Teams webhook URL", r"(?i)\.webhook\.office\.com/webhookb2/[0-9a-f-]{36}@[0-9a-f-]{36}"
                                      r"/IncomingWebhook/(?P<value>[0-9a-f]{32})/"),
    ("a Zapier webhook URL", r"hooks\.zapier\.com/hooks/catch/\d{4,12}/(?P<value>[A-Za-z0-9]{5,12})" + _R),
    ("a Stripe key", _L + r"(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/=]{24,})"),
    ("a DigitalOcean token", _L + r"do[pro]_v1_[a-f0-9]{64}" + _R),
    ("a Telegram bot token", _L + r"[0-9]{8,10}:AA[A-Za-z0-9_-]{33}" + _R),
    # Anthropic's keys open with OpenAI's `sk-` too: one too short for the first was refused as the second's.
    ("an Anthropic API key", _L + r"sk-ant-[A-Za-z0-9_-]{16,}"),
    # A random key holds a digit or a capital (a run of lowercase words joined by hyphens, `sk-learn-style-...`, is
    # prose about scikit-learn, not a key).
    ("an OpenAI API key", _L + r"sk-(?!ant-)(?:proj-|svcacct-|admin-)?(?=[a-z_-]{0,64}[A-Z0-9])[A-Za-z0-9_-]{20,}"),
    ("a Google API key", _L + r"AIza[0-9A-Za-z_-]{35}" + _R),
    ("a SendGrid key", _L + r"SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}"),
    ("an npm token", _L + r"npm_[A-Za-z0-9]{36}" + _R),
    ("a PyPI token", _L + r"pypi-AgE[A-Za-z0-9_-]{50,}"),
    ("a Hugging Face token", _L + r"hf_[A-Za-z0-9]{30,}" + _R),
    ("a Google OAuth client secret", _L + r"GOCSPX-[A-Za-z0-9_-]{24,}"),
    ("a Shopify token", _L + r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}" + _R),
    ("an Atlassian API token", _L + r"ATATT3[A-Za-z0-9_=-]{50,}"),
    ("a Grafana token", _L + r"(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})" + _R),
    ("a Databricks token", _L + r"dapi[a-f0-9]{32}(?:-\d)?" + _R),
    ("a HashiCorp Vault token", _L + r"hv[sbr]\.[A-Za-z0-9_-]{24,}"),
    ("a Supabase token", _L + r"sbp_[a-f0-9]{40}" + _R),
    ("a Postman API key", _L + r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}" + _R),
    ("a New Relic key", _L + r"NRAK-[A-Z0-9]{27}" + _R),
    ("a Sentry token", _L + r"sntr(?:ys|yu|[ysu])_[A-Za-z0-9+/=_-]{40,}"),
    # Mailgun's keys are 32 lowercase letters and digits (older ones hex): one of each at least, so that a
    # slug (`key-` and a word) is none.
    ("a Mailgun key", _L + r"key-(?=[a-z0-9]{0,31}[0-9])(?=[a-z0-9]{0,31}[a-z])[a-z0-9]{32}" + _R),
    ("an age secret key", _L + r"AGE-SECRET-KEY-1[A-Z0-9]{58}" + _R),
    ("a Figma token", _L + r"figd_[A-Za-z0-9_-]{40,}"),
    ("a Doppler token", _L + r"dp\.(?:st|ct|sa|scim|audit)\.[A-Za-z0-9_.-]{40,}"),
    ("a Linear API key", _L + r"lin_api_[A-Za-z0-9]{40}" + _R),
    ("an Azure client secret", _L + r"[A-Za-z0-9_~.-]{3}8Q~[A-Za-z0-9_~.-]{31,34}" + _R),
    ("a Twilio key", _L + r"SK[a-f0-9]{32}" + _R),
    ("a Heroku API key", _L + r"HRKU-[A-Za-z0-9_-]{20,}"),
    # AI and developer platforms, hosting, CI and payments (their documented prefixes and lengths).
    ("a Groq API key", _L + r"gsk_[A-Za-z0-9]{48,}" + _R),
    ("an xAI API key", _L + r"xai-[A-Za-z0-9]{70,}" + _R),
    ("a Replicate token", _L + r"r8_[A-Za-z0-9]{36,}" + _R),
    ("a Perplexity API key", _L + r"pplx-[A-Za-z0-9]{40,}" + _R),
    ("a Pinecone API key", _L + r"pcsk_[A-Za-z0-9_]{48,}" + _R),
    ("a LangSmith key", _L + r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}" + _R),
    ("a Tavily API key", _L + r"tvly-(?:dev-)?[A-Za-z0-9]{32,}" + _R),
    ("a Netlify token", _L + r"nfp_[A-Za-z0-9]{36,}" + _R),
    ("a Render API key", _L + r"rnd_[A-Za-z0-9]{32,}" + _R),
    ("a Vercel access token", _L + r"vcp_[A-Za-z0-9]{24,}" + _R),
    ("a Bitbucket app password", _L + r"ATBB[A-Za-z0-9_=.-]{32,}"),
    ("a Google Cloud HMAC key", _L + r"GOOG1[A-Z0-9]{50,}" + _R),
    ("an Alibaba Cloud key id", _L + r"LTAI[A-Za-z0-9]{12,20}" + _R),
    ("a Tencent Cloud key id", _L + r"AKID[A-Za-z0-9]{32}" + _R),
    ("a JFrog key", _L + r"AKCp[A-Za-z0-9]{64,}" + _R),
    ("a Contentful token", _L + r"CFPAT-[A-Za-z0-9_-]{43}" + _R),
    ("a Dynatrace token", _L + r"dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}" + _R),
    ("a Pulumi token", _L + r"pul-[a-f0-9]{40}" + _R),
    ("a Prefect key", _L + r"pnu_[A-Za-z0-9]{36}" + _R),
    ("a Buildkite token", _L + r"bkua_[a-f0-9]{40}" + _R),
    ("a CircleCI token", _L + r"CCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}" + _R),
    ("a Sourcegraph token", _L + r"sgp_(?:[a-f0-9]{16}_)?[a-f0-9]{40}" + _R),
    ("a Brevo key", _L + r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}" + _R),
    ("a Flutterwave key", _L + r"FLWSECK(?:_TEST)?-[a-h0-9]{32}-X" + _R),
    ("a Razorpay key", _L + r"rzp_live_[A-Za-z0-9]{14,}" + _R),
    ("an EasyPost key", _L + r"EZAK[a-f0-9]{54}" + _R),
    ("an Adafruit IO key", _L + r"aio_[A-Za-z0-9]{28}" + _R),
    ("a Firebase server key", _L + r"AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,}"),
    ("a Dropbox token", _L + r"sl\.[A-Za-z0-9_-]{130,}"),
    ("a Twitch token", r"(?<![\w-])oauth:[a-z0-9]{30}" + _R),
    ("a Google OAuth token", _L + r"(?:ya29\.[0-9A-Za-z_-]{20,}|1//0[0-9A-Za-z_-]{30,})"),
    ("a Docker Hub token", _L + r"dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}"),
    # Notion's integration tokens: `ntn_` now, `secret_` and 43 characters before (a digit or a capital among them:
    # `secret_` and a run of lowercase words is a name).
    ("a Notion token", _L + r"(?:ntn_[A-Za-z0-9]{40,}|secret_(?=[a-z]{0,42}[A-Z0-9])[A-Za-z0-9]{43})" + _R),
    ("a RubyGems key", _L + r"rubygems_[a-f0-9]{48}" + _R),
    ("a PlanetScale token", _L + r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,}"),
    ("a Square token", _L + r"sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}"),
    # Square's production access tokens today: `EAAA` and 60 characters of base64url, a digit among them.
    ("a Square access token", _L + r"EAAA(?=[A-Za-z_-]{0,59}[0-9])[A-Za-z0-9_-]{60}(?![A-Za-z0-9_-])"),
    ("an Airtable token", _L + r"pat[A-Za-z0-9]{14}\.[a-f0-9]{56,64}" + _R),
    # Asana's personal access tokens: `2/<user id>/<token id>:<32 hex>` (an older one has no token id).
    ("an Asana token", r"(?<![\w/.:-])[0-9]/[0-9]{10,20}(?:/[0-9]{10,20})?:[a-f0-9]{32}" + _R),
    ("a Facebook access token", _L + r"EAA[A-Z][A-Za-z0-9]{80,}" + _R),
    ("a Terraform Cloud token", _L + r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_-]{60,}"),
    ("a Fly.io token", _L + r"f[mo][12]_[A-Za-z0-9_+/=-]{20,}"),
    ("a Vercel token", _L + r"vercel_blob_rw_[A-Za-z0-9_]{20,}"),
    ("a 1Password service account token", _L + r"ops_eyJ[A-Za-z0-9+/=_-]{50,}"),
    ("a Mapbox secret token", _L + r"sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}"),
    ("a Mailchimp API key", _L + r"[0-9a-f]{32}-us[0-9]{1,2}" + _R),
    # A PEM private key in base64 (kubeconfig's `client-key-data`, a Kubernetes Secret's `tls.key`): its
    # `-----BEGIN` then "PRIVATE KEY" at any of base64's three alignments.
    ("a private key (base64 of its PEM)",
     _L + r"LS0tLS1CRUdJTi[A-Za-z0-9+/]{0,40}?(?:UFJJVkFURSBLRV|SSVZBVEUgS0VZ|QUklWQVRFIEtFW)[A-Za-z0-9+/=]*"),
    # A private key's base64 body pasted without its BEGIN line: the DER openings of an RSA (PKCS#1), any
    # PKCS#8, an EC (P-256, P-384) or an Ed25519 key, and OpenSSH's own format. Certificates and public
    # keys open otherwise (MIIDxTCCA..., MIIBIjANBg...).
    ("a private key (its body)", _L + r"(?:MII[A-Za-z0-9+/]{2}[AQgw]IBA(?:AK|DAN)|MIG[A-Za-z0-9+/]AgEAMB[A-Za-z0-9+/]G|MHcCAQEEI"
                                      r"|MIGkAgEBBD|MC4CAQAwBQYDK2Vw|b3BlbnNzaC1rZXktdjE)[A-Za-z0-9+/]{16,}"),
    # From a run's start only, each part taken whole: from every `eyJ` inside a run it re-read the run (quadratic).
    ("a JSON web token", r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}+\.eyJ[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]{8,}"),
    ("a signed URL's signature", r"(?i)[?&](?:sig|signature|x-amz-signature|x-goog-signature)=(?P<value>[^&#\s]{16,})"),
    # A Sentry DSN's key (32 hex) before its host's '@', with the older form's `:secret`; its project id or a
    # sentry host after: a commit id before an '@' is none.
    ("a Sentry DSN", r"(?i)\bhttps?://(?P<value>[0-9a-f]{32})(?::[0-9a-f]{32})?@(?:[\w.-]{0,128}sentry[\w.-]{0,128}"
                     r"|[\w.-]{1,128}(?::\d{1,5})?/\d{1,20}(?!\w))"),
    # The password may hold a '/' (written raw, as people do); a port and a path before an '@' are no password.
    # Not an IPv6 host's `[::1]:3000`: its colons are no `user:password` (`http://[::1]:3000/users/@me`).
    ("a password in a URL",
     r"(?i)\b[a-z][a-z0-9+.-]{1,20}://(?!\[)[^\s:/@'\"]{0,256}:(?P<value>(?!\d{1,5}(?:/|@))[^\s@'\"]{3,256})@[^\s/]"),
    ("a basic auth header", r"(?i)\bauthorization\s*[:=]\s*[\"']?basic\s+(?P<value>[A-Za-z0-9+/]{8,}={0,2})"),
    # GitHub's `Authorization: token <40 hex>`, Django REST's `Token`, Discord's `Bot`, Okta's `SSWS`.
    ("a token in an authorization header",
     r"(?i)\bauthorization\s*[:=]\s*[\"']?(?:token|bot|ssws|api-?key|sso-key)\s+(?P<value>[A-Za-z0-9._~+/-]{16,}=*)"),
    ("a bearer token", r"(?i)\bbearer\s+(?P<value>[A-Za-z0-9._~+/-]{20,}=*)"),
))

# A value found by any rule (given to a secret-named key, on a command line, in a URL) that opens with a provider's own
# prefix is named for the provider: the person learns which key to rotate, not only where it stood.
NAMED_BY_PREFIX: tuple[tuple[str, str], ...] = (("sk-ant-", "an Anthropic API key"),)

# Credentials the standards print as their examples, known to every reader (as AWS's AKIAIOSFODNN7EXAMPLE): a
# lesson quoting one quotes the document. RFC 7617's and RFC 2617's Basic `Aladdin:open sesame`, RFC 6749's
# client `s6BhdRkqt3:gX1fBat3bV`, its access and refresh tokens; jwt.io's example token (HS256, "John Doe"). Without
# base64's padding.
DOCUMENTED_EXAMPLES = frozenset(("QWxhZGRpbjpvcGVuIHNlc2FtZQ", "czZCaGRSa3F0MzpnWDFmQmF0M2JW", "2YotnFZFEjr1zCsicMWpAA",
                                 "tGzv3JOkF0XG5Qx2TlKWIA",
                                 "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwia"
                                 "WF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"))

# Header forms whose value must look like base64 or a token, not a word ("Authorization: Basic credentials are...").
HEADERS = ("a basic auth header", "a token in an authorization header")

# What each format's every match holds: a substring test tells whether to try its pattern (far cheaper than a
# regex scan of the whole text). Each format has its own: a paste with `TASK` in it (Twilio's `SK`) or `MIGRATE`
# (a key body's `MIG`) tries those two, not all forty. A case-blind pattern's are tried on the lowercased text.
GATES: dict[str, tuple[str, ...]] = {
    "an AWS access key id": ("AKIA", "ASIA", "ABIA", "ACCA"),
    "a GitHub token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "a GitLab token": ("glpat-", "glrt-", "glrtr-", "gldt-", "glptt-", "glcbt-", "glsoat-", "glffct-", "glagent-",
                       "glft-", "glimt-", "gloas-"),
    # The written prefix whole (`xoxb-`, not `xox`): a key cut right after it is read with it (secret_anchors.py).
    "a Slack token": ("xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "xapp-"),
    "a Slack webhook URL": ("hooks.slack",),
    "a Discord webhook URL": ("/api/webhooks/",),
    "a Microsoft Teams webhook URL": ("webhookb2",),
    "a Zapier webhook URL": ("hooks.zapier",),
    "a Stripe key": ("k_live_", "k_test_", "whsec_"),
    "a DigitalOcean token": ("dop_v1_", "dor_v1_", "doo_v1_"),
    "a Telegram bot token": (":AA",),
    "an Anthropic API key": ("sk-ant-",),
    "an OpenAI API key": ("sk-",),
    "a Google API key": ("AIza",),
    "a SendGrid key": ("SG.",),
    "an npm token": ("npm_",),
    "a PyPI token": ("pypi-",),
    "a Hugging Face token": ("hf_",),
    "a Google OAuth client secret": ("GOCSPX-",),
    "a Shopify token": ("shpat_", "shpca_", "shppa_", "shpss_"),
    "an Atlassian API token": ("ATATT3",),
    "a Grafana token": ("glsa_", "glc_"),
    "a Databricks token": ("dapi",),
    "a HashiCorp Vault token": ("hvs.", "hvb.", "hvr."),
    "a Supabase token": ("sbp_",),
    "a Postman API key": ("PMAK-",),
    "a New Relic key": ("NRAK-",),
    "a Sentry token": ("sntrys_", "sntryu_", "sntry_", "sntru_", "sntrs_"),
    "a Mailgun key": ("key-",),
    "an age secret key": ("AGE-SECRET",),
    "a Figma token": ("figd_",),
    "a Doppler token": ("dp.",),
    "a Linear API key": ("lin_api_",),
    "an Azure client secret": ("8Q~",),
    "a Twilio key": ("SK",),
    "a Heroku API key": ("HRKU-",),
    "a Groq API key": ("gsk_",), "an xAI API key": ("xai-",), "a Replicate token": ("r8_",),
    "a Perplexity API key": ("pplx-",), "a Pinecone API key": ("pcsk_",), "a LangSmith key": ("lsv2_",),
    "a Tavily API key": ("tvly-",), "a Netlify token": ("nfp_",), "a Render API key": ("rnd_",),
    "a Vercel access token": ("vcp_",), "a Bitbucket app password": ("ATBB",), "a Google Cloud HMAC key": ("GOOG1",),
    "an Alibaba Cloud key id": ("LTAI",), "a Tencent Cloud key id": ("AKID",), "a JFrog key": ("AKCp",),
    "a Contentful token": ("CFPAT-",), "a Dynatrace token": ("dt0c01.",), "a Pulumi token": ("pul-",),
    "a Prefect key": ("pnu_",), "a Buildkite token": ("bkua_",), "a CircleCI token": ("CCIPAT_",),
    "a Sourcegraph token": ("sgp_",), "a Brevo key": ("xkeysib-",), "a Flutterwave key": ("FLWSECK",),
    "a Razorpay key": ("rzp_live_",), "an EasyPost key": ("EZAK",), "an Adafruit IO key": ("aio_",),
    "a Firebase server key": (":APA91b",), "a Dropbox token": ("sl.",), "a Twitch token": ("oauth:",),
    "a Google OAuth token": ("ya29.", "1//0"),
    "a Docker Hub token": ("dckr_pat_", "dckr_oat_"),
    "a Notion token": ("ntn_", "secret_"),
    "a RubyGems key": ("rubygems_",),
    "a PlanetScale token": ("pscale_",),
    "a Square token": ("sq0",), "a Square access token": ("EAAA",), "an Airtable token": ("pat",),
    "an Asana token": (":",),
    "a Facebook access token": ("EAA",),
    "a Terraform Cloud token": (".atlasv1.",),
    "a Fly.io token": ("fm1_", "fm2_", "fo1_", "fo2_"),
    "a Vercel token": ("vercel_blob_rw_",),
    "a 1Password service account token": ("ops_eyJ",),
    "a Mapbox secret token": ("sk.eyJ",),
    "a Mailchimp API key": ("-us",),
    "a private key (base64 of its PEM)": ("LS0tLS1CRUdJTi",),
    "a private key (its body)": ("MII", "MIG", "MHcCAQEEI", "MC4CAQAw", "b3BlbnNzaC1rZXktdjE"),
    "a JSON web token": ("eyJ",),
    "a signed URL's signature": ("sig=", "signature="),
    "a Sentry DSN": ("://",),
    "a password in a URL": ("://",),
    "a basic auth header": ("authorization",),
    "a token in an authorization header": ("authorization",),
    "a bearer token": ("bearer",),
}
# An AWS secret access key is 40 characters of base64 with no prefix: a secret only beside what names it, an
# access key id (`AKIA...`, elided or whole) in the same field or node. Alone, 40 such characters may be anything.
AWS_KEY_ID_SAID = re.compile(_L + r"A[KS]IA(?![a-z])")
AWS_SECRET_BARE = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9+/=])")
# A Discord bot token has no prefix: tried on its own where the text has two dots.
DISCORD = re.compile(_L + r"[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}" + _R)
# A .NET or Java qualified name has the Discord token's lengths (`OrderFulfillmentServices.Orders.Reserve…Async`):
# every part capitalised words, which a token's random parts (its first, base64 of a numeric id) are not.
_CODE_NAME_PARTS = re.compile(r"(?:[A-Z][a-z]+)+(?:\.(?:[A-Z][a-z]+)+)+")


def named_in_code(value: str) -> bool:
    """Whether a dotted value of a key's shape is a name in code made of words."""
    return _CODE_NAME_PARTS.fullmatch(value) is not None


# Where a command line, a header or a file format says what a value is, without a secret-named key before it:
# (kind, what the lowercased text must hold for the pattern to be tried, the pattern, how its value is judged).
# Most values must still look like a credential (`_credential`, as after `password=`): `-u 1000:1000`,
# `--password $PGPASS` pass. A flag's `-p` is a password only for the tools that say so: `ssh -p 2222` and
# `psql -p 5432` give a port. Scans to a tool's flag are bounded (`{0,200}`): a long line costs no more.
_TOOL_FLAG = r"\b[^\n]{0,200}?\s"
_FLAG_VALUE = r"[\"']?(?P<value>[^\s'\"]{4,256})"  # bounded: a value's every test reads it whole
SAID_RULES: tuple[tuple[str, str, str, str], ...] = (
    ("a password on a command line", "mysql", r"\bmysql\w*" + _TOOL_FLAG + r"-p(?P<value>[^\s'\"]{4,})", "credential"),
    ("a password on a command line", "mariadb", r"\bmariadb\w*" + _TOOL_FLAG + r"-p(?P<value>[^\s'\"]{4,})", "credential"),
    # `--password X`, `--db-password=X`, `--http-password X`; not `--password-stdin` or `--password-file F`.
    ("a password on a command line", "--", r"--(?:[a-z0-9]+-)*pass(?:word|wd|phrase)?[ =]" + _FLAG_VALUE, "credential"),
    # `--token X`, `--api-key X`, `--aws-secret-access-key X`; not `--secret id=npmrc,src=...` (docker build's
    # names a file) nor `--token-file F`, `--max-tokens 4096`.
    ("a token on a command line", "--",
     r"--(?:[a-z0-9]+-)*(?:token|api-?key|access-key|secret-key|secret-access-key|client-secret|auth-key)[ =]"
     + _FLAG_VALUE, "credential"),
    ("a password on a command line", "sshpass", r"\bsshpass\s+(?:-[a-zA-Z]\S*\s+){0,4}?-p\s*" + _FLAG_VALUE,
     "credential"),
    ("a password on a command line", "redis-cli", r"\bredis-cli" + _TOOL_FLAG + r"-a\s+" + _FLAG_VALUE, "credential"),
    ("a password on a command line", "login",
     r"\b(?:docker|podman|nerdctl|buildah|skopeo|oras|helm\s+registry)\s+login" + _TOOL_FLAG + r"-p[ =]?" + _FLAG_VALUE,
     "credential"),
    ("a password on a command line", "mongo", r"\bmongo(?:sh|dump|restore|import|export)?" + _TOOL_FLAG + r"-p\s*"
     + _FLAG_VALUE, "credential"),
    ("a password on a command line", "ldap", r"\bldap(?:search|add|modify|delete|passwd|whoami|compare)"
     + _TOOL_FLAG + r"-w\s*" + _FLAG_VALUE, "credential"),
    ("a password on a command line", "zip", r"\b(?:un)?zip" + _TOOL_FLAG + r"-P\s*" + _FLAG_VALUE, "credential"),
    # keytool's and jarsigner's `-storepass X` (not `-storepass:env NAME`), openssl's `-passin pass:X`.
    ("a password on a command line", "pass", r"(?<!\S)-(?:src|dest|new)?(?:store|key)pass\s+" + _FLAG_VALUE,
     "credential"),
    ("a password on a command line", "pass:", r"(?<!\S)-pass(?:in|out)?\s+[\"']?pass:(?P<value>[^\s'\"]{4,})",
     "credential"),
    ("a user's password on a command line", "-u", r"(?:^|\s)(?:-u|--user)(?:\s+|=)[\"']?[^:\s'\"]+:(?P<value>[^\s'\"@]{4,})",
     "credential"),
    ("a session cookie", "cookie",
     # A cookie's name is read once, from its start (not from inside another name), and taken whole: the name
     # test looks ahead a bounded way. `[\w-]*sess[\w-]*=` retried every split of a long name (quadratic).
     r"(?i)\bcookie:[^\n]{0,400}?(?<![\w-])(?=[\w-]{0,64}?(?:sess|sid|token|auth))[\w-]++="
     r"(?P<value>[A-Za-z0-9%._~+/-]{16,256})", "credential"),
    ("a .pgpass line", "::", r"(?m)^[\w.-]+:(?:\d+|\*):[\w*.-]+:[\w*.-]+:(?P<value>[^\s:]{6,})$", "credential"),
    # A .netrc entry: `machine HOST login USER password VALUE`, on one line or several. Its value is a password
    # whatever it looks like (words too), as after `password=`.
    ("a password in a .netrc entry", "machine",
     r"\bmachine\s+\S+(?:\s+(?:login|account|port)\s+\S+){0,3}\s+password\s+(?P<value>\S+)", "password"),
    # An environment's `STRIPE_KEY=...`, `ALGOLIA_ADMIN_KEY=...`: a random value there is the key (not a
    # publishable one, nor a name or a path). The names the secret words below know (API_KEY, SECRET_KEY, ...)
    # are theirs.
    ("a key assigned to an environment variable", "_key",
     r"(?<![A-Za-z0-9_])(?![A-Z0-9_]*PUBLI[CS])(?![A-Z0-9_]*(?:API|ACCESS|ACCOUNT|AUTH|SECRET|SESSION|SIGNING|PRIVATE"
     r"|ENCRYPTION|MASTER|HMAC|JWT|APP)_KEY\b)[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_KEY\s*[=:]\s*[\"']?"
     r"(?P<value>[^\s\"'`,;]{12,})", "random"),
    # Gmail's and Apple's app passwords: four groups of four letters, quoted or not.
    ("an app password", "pass", r"(?i)pass\w{0,40}\s*[=:]\s*[\"']?(?P<value>[a-z]{4}(?: [a-z]{4}){3})(?![a-z])",
     "password"),
    # SQL's `CREATE USER ... IDENTIFIED BY '...'`, `ALTER USER ... IDENTIFIED BY ...`: the quoted value is the password.
    ("a password in SQL", "identified", r"(?i)\bidentified\s+(?:with\s+\w+\s+)?by\s+(?:password\s+)?['\"](?P<value>[^'\"]{4,})['\"]",
     "password"),
    ("a password on a command line", "htpasswd", r"\bhtpasswd\s+(?:-\w+\s+)*-\w*b\w*\s+\S+\s+\S+\s+" + _FLAG_VALUE,
     "credential"),
    ("a password on a command line", "openssl", r"\bopenssl\b" + _TOOL_FLAG + r"-k\s+" + _FLAG_VALUE, "credential"),
    ("a password on a command line", "az login", r"\baz\s+login" + _TOOL_FLAG + r"-p\s+" + _FLAG_VALUE, "credential"),
    # A registry's login as docker's config.json (`"auth": "..."`) and .npmrc (`_auth=...`) keep it: base64 of
    # `user:password`, whatever the password looks like.
    ("a registry login (base64 of user:password)", "auth",
     r"(?:\"auth\"\s*:\s*\"|(?<![\w-])_auth\s*=\s*[\"']?)(?P<value>[A-Za-z0-9+/]{8,}={0,2})", "basic"),
    # A Twilio auth token is 32 hex digits, no prefix: a secret beside its Account SID (`AC` and 32 hex), as
    # `Client('AC…', '<token>')` and prose give them, before or after it; not a hash or a digest named so.
    ("a Twilio auth token (beside its Account SID)", "ac",
     _L + r"AC[0-9a-f]{32}" + _R + r"[^\n]{0,80}?" + _L + r"(?P<value>[0-9a-f]{32})" + _R, "key in words"),
    ("a Twilio auth token (beside its Account SID)", "ac",
     _L + r"(?P<value>[0-9a-f]{32})" + _R + r"[^\n]{0,80}?" + _L + r"AC[0-9a-f]{32}" + _R, "key in words"),
    # An Azure DevOps personal access token: 52 characters of lowercase base32 (a digit among them) after its
    # names (`AZURE_DEVOPS_PAT=`, "Azure DevOps PAT", VSTS's, AzDO's), a few words between.
    *(("an Azure DevOps token", name, r"(?i:(?<![a-z])(?:pat|devops|vsts|azdo|ado)s?(?![a-z]))[^\n]{0,40}?"
       r"(?<![A-Za-z0-9])(?P<value>(?=[a-z2-7]{0,51}[2-7])[a-z2-7]{52})(?![A-Za-z0-9])", "credential")
      for name in ("pat", "devops", "vsts", "azdo", "ado")),
    # A wallet's or a signer's private key is 64 hex digits (0x or not), beside the words that name it; not a
    # key's hash or fingerprint, nor a public key.
    ("a private key (hex)", "priv",
     r"(?i)\bpriv(?:ate)?[ _-]?keys?\b[^\n]{0,40}?(?<![0-9A-Za-z])(?:0x)?(?P<value>[0-9a-f]{64})(?![0-9A-Za-z])",
     "hex"),
)
